// Dates as people in China read them: Beijing time (UTC+8; China has kept no daylight saving time since
// 1991, so a fixed offset is exact). Plain arithmetic, not Intl: a DateTimeFormat costs ~0.5 ms to make,
// and these run on every signature and every notice.

const BEIJING_OFFSET_MS = 8 * 60 * 60_000;
const beijingIso = (d: Date) => new Date(d.getTime() + BEIJING_OFFSET_MS).toISOString();

/** "2026-12-01" */
export const beijingDate = (d: Date): string => beijingIso(d).slice(0, 10);

/** "2026-12-01 18:00" */
export const beijingMinute = (d: Date): string => beijingIso(d).slice(0, 16).replace('T', ' ');
