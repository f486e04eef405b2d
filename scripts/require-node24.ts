// Imported first by every config and entry point: the project targets Node 24 (see README).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  throw new Error(
    `Node ${process.versions.node} is running, but this project needs Node 24 or newer. ` +
      'Run it through npm scripts (npm run …, npx …) after a full `npm ci` so that the `node` package provides Node 24.',
  );
}
export {};
