// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { partnerModule } from './routes.ts';
