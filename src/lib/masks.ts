/** Mask the middle of a string, keeping `head` leading and `tail` trailing characters. */
function maskMiddle(value: string, head: number, tail: number): string {
  if (value.length <= head + tail) return value;
  return value.slice(0, head) + '*'.repeat(value.length - head - tail) + value.slice(-tail);
}

/** SPEC §5: a phone shows its first 3 and last 4 digits (138****5678). */
export const maskPhone = (phone: string | null | undefined): string => maskMiddle(phone ?? '', 3, 4);

/** SPEC §5: an ID number shows its first 6 and last 4 characters. */
export const maskIdNumber = (id: string | null | undefined): string => maskMiddle(id ?? '', 6, 4);
