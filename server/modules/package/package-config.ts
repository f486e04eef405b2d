// The package and payment settings are read with every other setting: server/config/package.ts.
export * from '../../config/package.ts';
