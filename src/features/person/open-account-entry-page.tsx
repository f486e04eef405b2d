import { OpenAccountEntryPage } from './open-account-pages.tsx';

export default OpenAccountEntryPage;
