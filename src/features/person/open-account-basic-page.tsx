import { OpenAccountBasicPage } from './open-account-pages.tsx';

export default OpenAccountBasicPage;
