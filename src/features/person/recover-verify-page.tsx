import { RecoverVerifyPage } from './recover-pages.tsx';

export default RecoverVerifyPage;
