import { RecoverFinishPage } from './recover-pages.tsx';

export default RecoverFinishPage;
