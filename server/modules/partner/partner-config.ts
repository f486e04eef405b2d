// The partner settings are read with every other setting: server/config/partner.ts.
export * from '../../config/partner.ts';
