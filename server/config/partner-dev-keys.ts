/**
 * DEVELOPMENT-ONLY key material of the partner platforms and the simulated central user centre.
 * It is public (it is in this repository): it lets a developer, the tests and Playwright mint partner tokens
 * without any set-up. partner.ts uses it only when NODE_ENV is not production, and production refuses
 * to start when a configured partner uses any of it.
 */

/** ZHDB (HS256): the shared secret both sides know. */
export const DEV_ZHDB_SECRET = 'development-only-ZHDB-partner-secret-never-use-in-production';

/** ZYPT (ES256, P-256): the partner keeps the private key, this platform is configured with the public one. */
export const DEV_ZYPT_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEHueAsk+tZILzzxEUEDrrCaxT4e2H
Zx5GEaACu1SqtoDG0b5t27h6fyZxqedzcuX52YCyDRz6y6q3xZNntJtFyQ==
-----END PUBLIC KEY-----
`;
export const DEV_ZYPT_PRIVATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgWtkI9GtuF6dH9JUw
cIk0i+7GhjaxQPlnSwqtyVDoUIWhRANCAAQe54CyT61kgvPPERQQOusJrFPh7Ydn
HkYRoAK7VKq2gMbRvm3buHp/JnGp53Ny5fnZgLINHPrLqrfFk2e0m0XJ
-----END PRIVATE KEY-----
`;

/** Signs the development central user centre's `hy_session` cookie. */
export const DEV_HY_SECRET = 'development-only-central-user-centre-secret-never-in-production';
