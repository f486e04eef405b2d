import { OpenAccountFinishPage } from './open-account-pages.tsx';

export default OpenAccountFinishPage;
