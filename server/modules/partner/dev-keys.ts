// The development key material lives with the partner settings: server/config/partner-dev-keys.ts.
export * from '../../config/partner-dev-keys.ts';
