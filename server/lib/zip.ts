// A small ZIP writer (PKWARE APPNOTE: local headers, central directory, end record; UTF-8 names, DEFLATE
// when it saves space, STORE otherwise). No ZIP64: an archive stays under 4 GiB and 65,535 entries, which
// the callers' limits keep it under. node:zlib gives DEFLATE and the CRC-32.
import { crc32, deflateRawSync } from 'node:zlib';

export type ZipEntry = { name: string; bytes: Uint8Array; modified?: Date };

/** DOS date and time of a moment (local fields from UTC: zips carry no zone). */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** A little-endian field: its width in bytes and its value. */
type Field = [2 | 4, number];

/** A ZIP record: its signature, then the fields. */
function record(signature: number, fields: Field[]): Buffer {
  const out = Buffer.alloc(4 + fields.reduce((n, [w]) => n + w, 0));
  out.writeUInt32LE(signature, 0);
  let at = 4;
  for (const [width, value] of fields) {
    if (width === 2) out.writeUInt16LE(value, at);
    else out.writeUInt32LE(value >>> 0, at);
    at += width;
  }
  return out;
}

/** Collects entries and writes the archive. */
export class ZipWriter {
  private parts: Buffer[] = [];
  private central: Buffer[] = [];
  private offset = 0;
  private count = 0;
  private names = new Set<string>();

  /** Adds a file; a name used before gets " (2)", " (3)", … before its extension. */
  add(entry: ZipEntry): string {
    const name = this.uniqueName(entry.name);
    const raw = Buffer.from(entry.bytes);
    const deflated = deflateRawSync(raw, { level: 6 });
    const isDeflated = deflated.length < raw.length;
    const data = isDeflated ? deflated : raw;
    const crc = crc32(raw) >>> 0;
    const nameBytes = Buffer.from(name, 'utf8');
    const { time, date } = dosTime(entry.modified ?? new Date());
    const method = isDeflated ? 8 : 0;
    // version needed 2.0, flag bit 11 (UTF-8 names), method, time, date, CRC, sizes, name length
    const common: Field[] = [
      [2, 20],
      [2, 0x0800],
      [2, method],
      [2, time],
      [2, date],
      [4, crc],
    ];
    const sizes: Field[] = [
      [4, data.length],
      [4, raw.length],
      [2, nameBytes.length],
    ];
    const local = record(0x04034b50, [...common, ...sizes, [2, 0]]);
    // made by 2.0, then as above, extra, comment, disk, internal and external attributes, local offset
    const head = record(0x02014b50, [
      [2, 20],
      ...common,
      ...sizes,
      [2, 0],
      [2, 0],
      [2, 0],
      [2, 0],
      [4, 0],
      [4, this.offset],
    ]);
    this.parts.push(local, nameBytes, data);
    this.central.push(head, nameBytes);
    this.offset += local.length + nameBytes.length + data.length;
    this.count += 1;
    return name;
  }

  private uniqueName(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.names.has(name); n++) {
      const dot = wanted.lastIndexOf('.');
      name =
        dot > wanted.lastIndexOf('/')
          ? `${wanted.slice(0, dot)} (${n})${wanted.slice(dot)}`
          : `${wanted} (${n})`;
    }
    this.names.add(name);
    return name;
  }

  /** The archive's bytes. */
  finish(): Uint8Array {
    const dir = Buffer.concat(this.central);
    // disk numbers, entries on this disk and in all, the directory's size and offset, comment length
    const end = record(0x06054b50, [
      [2, 0],
      [2, 0],
      [2, this.count],
      [2, this.count],
      [4, dir.length],
      [4, this.offset],
      [2, 0],
    ]);
    return new Uint8Array(Buffer.concat([...this.parts, dir, end]));
  }
}

/** A file or folder name made safe in an archive (no path separators or control characters; at most 80). */
export function zipSafeName(s: string): string {
  const kept = [...s].map((c) => (c.charCodeAt(0) < 32 || '/\\:*?"<>|'.includes(c) ? '_' : c)).join('');
  return kept.trim().slice(0, 80) || '_';
}
