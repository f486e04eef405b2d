// What only tests may import of this module (server/README.md, "Two faces"; the graph rule testing-face-only-for-tests).
export { pickerKeyword } from './picker-keyword.ts';
export { PICKER_MAX_PER_HOUR } from './service.ts';
