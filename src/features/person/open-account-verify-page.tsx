import { OpenAccountVerifyPage } from './open-account-pages.tsx';

export default OpenAccountVerifyPage;
