// Distinguished names (certificate subject and issuer) as people read them. The server stores RFC 4514 text
// such as `C=CN, O=某公司, CN=张三, 2.5.4.5=3f9a…` (an attribute without a short name keeps its OID); every
// screen that shows a certificate turns it into labelled parts with this one parser and table.

type DnPart = { type: string; value: string };

/** The attribute types people meet, by short name or OID (upper-cased), with their labels. */
const LABELS: Record<string, { zh: string; en: string; order: number }> = {
  CN: { zh: '名称', en: 'Name', order: 0 },
  O: { zh: '组织', en: 'Organisation', order: 1 },
  OU: { zh: '部门', en: 'Organisational unit', order: 2 },
  SERIALNUMBER: { zh: '主体序列号', en: 'Subject serial number', order: 3 },
  ORGANIZATIONIDENTIFIER: { zh: '组织标识', en: 'Organisation identifier', order: 4 },
  L: { zh: '城市', en: 'Locality', order: 5 },
  ST: { zh: '省份', en: 'Province', order: 6 },
  C: { zh: '国家', en: 'Country', order: 7 },
  E: { zh: '电子邮箱', en: 'Email', order: 8 },
  DC: { zh: '域名部分', en: 'Domain component', order: 9 },
  GIVENNAME: { zh: '名', en: 'Given name', order: 10 },
  SURNAME: { zh: '姓', en: 'Surname', order: 11 },
  TITLE: { zh: '职务', en: 'Title', order: 12 },
};

const ALIASES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.97': 'ORGANIZATIONIDENTIFIER',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.6': 'C',
  '1.2.840.113549.1.9.1': 'E',
  EMAILADDRESS: 'E',
  '0.9.2342.19200300.100.1.25': 'DC',
  '2.5.4.42': 'GIVENNAME',
  G: 'GIVENNAME',
  '2.5.4.4': 'SURNAME',
  SN: 'SURNAME',
  '2.5.4.12': 'TITLE',
};

/** The canonical type of an attribute (`2.5.4.5`, `serialNumber`, `OID.2.5.4.5` → `SERIALNUMBER`). */
function dnType(type: string): string {
  const upper = type
    .trim()
    .replace(/^OID\./i, '')
    .toUpperCase();
  return ALIASES[upper] ?? upper;
}

/** Decodes `#hex` DER values of string types (what RFC 4514 writes for an unknown attribute). */
function fromHexDer(hex: string): string {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) return `#${hex}`;
  const bytes = Uint8Array.from(hex.match(/../g)!.map((b) => Number.parseInt(b, 16)));
  const stringTags = [0x0c, 0x13, 0x16, 0x14, 0x1e];
  if (bytes.length < 2 || !stringTags.includes(bytes[0]!)) return `#${hex}`;
  let length = bytes[1]!;
  let start = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | (bytes[2 + i] ?? 0);
    start = 2 + count;
  }
  const body = bytes.slice(start, start + length);
  if (bytes[0] === 0x1e) {
    let text = '';
    for (let i = 0; i + 1 < body.length; i += 2) text += String.fromCharCode((body[i]! << 8) | body[i + 1]!);
    return text;
  }
  return new TextDecoder().decode(body);
}

/** Splits RFC 4514 (or RFC 2253) text into its attributes, honouring `\,`, `\+`, `\\`, `\XX` and `"…"`. */
export function parseDn(text: string): DnPart[] {
  // text with no `type=` at all (a bare name) stays one unlabelled part
  if (!text.includes('=')) return text.trim() ? [{ type: '', value: text.trim() }] : [];
  const parts: DnPart[] = [];
  let type = '';
  let value = '';
  let isValue = false;
  let isQuoted = false;
  const bytes: number[] = [];
  const flushBytes = () => {
    if (bytes.length) value += new TextDecoder().decode(Uint8Array.from(bytes.splice(0)));
  };
  const push = () => {
    flushBytes();
    const v = value.trim();
    if (type.trim() || v) {
      parts.push({ type: dnType(type), value: v.startsWith('#') && !isQuoted ? fromHexDer(v.slice(1)) : v });
    }
    type = '';
    value = '';
    isValue = false;
    isQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (!isValue) {
      if (ch === '=') isValue = true;
      else if (ch === ',' || ch === ';' || ch === '+') push();
      else type += ch;
      continue;
    }
    if (ch === '\\' && i + 1 < text.length) {
      const hex = text.slice(i + 1, i + 3);
      if (/^[0-9a-f]{2}$/i.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else {
        flushBytes();
        value += text[i + 1];
        i += 1;
      }
      continue;
    }
    flushBytes();
    if (ch === '"') {
      isQuoted = !isQuoted;
      continue;
    }
    if (!isQuoted && (ch === ',' || ch === ';' || ch === '+')) {
      push();
      continue;
    }
    value += ch;
  }
  push();
  return parts;
}

/** The readable label of a canonical type in the locale, or the type itself when unknown. */
function dnLabel(type: string, locale: 'zh-CN' | 'en-US'): string {
  const label = LABELS[type];
  if (!label) return type;
  return locale === 'zh-CN' ? label.zh : label.en;
}

/** The parts in reading order (name, organisation, serial number… country last), each with its label. */
export function readableDn(text: string, locale: 'zh-CN' | 'en-US'): { label: string; value: string }[] {
  return parseDn(text)
    .map((p, i) => ({ ...p, i, order: LABELS[p.type]?.order ?? 100 }))
    .sort((a, b) => a.order - b.order || a.i - b.i)
    .map((p) => ({ label: p.type ? dnLabel(p.type, locale) : '', value: p.value }));
}

/** One line of text: `Name: 张三; Organisation: 某公司; Subject serial number: 3f9a…; Country: CN`. */
export function formatDn(text: string, locale: 'zh-CN' | 'en-US'): string {
  const sep = locale === 'zh-CN' ? '；' : '; ';
  const colon = locale === 'zh-CN' ? '：' : ': ';
  return readableDn(text, locale)
    .map((p) => (p.label ? `${p.label}${colon}${p.value}` : p.value))
    .join(sep);
}
