/** SPEC §5: a phone shows its first 3 and last 4 digits. */
export const maskPhone = (phone: string) =>
  phone.length > 7 ? `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}` : phone;
