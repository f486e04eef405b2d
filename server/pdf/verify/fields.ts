/**
 * Finds signature fields the way a viewer does: from the AcroForm of the latest revision, walking
 * /Fields and /Kids, taking each signature field's /V. Byte-level searching is deliberately not used:
 * wrapping and spoofing attacks plant signature dictionaries that no field refers to.
 */
import type { PdfFile, Revision } from '../parse/document.ts';
import { isArray, isDict, isName, isRef, type PdfDict, textOf } from '../parse/objects.ts';

export type FoundSignature = {
  field: string;
  /** object number holding the signature dictionary (the field's own number when /V is direct) */
  sigObjNum: number | null;
  fieldObjNum: number | null;
  sig: PdfDict;
  order: number;
  /** the field's /V names an object that does not read as a signature dictionary */
  unreadable?: boolean;
};

export function findSignatureFields(pdf: PdfFile, rev: Revision): FoundSignature[] {
  const out: FoundSignature[] = [];
  const cat = pdf.catalog(rev);
  const acro = pdf.getDict(rev, cat, 'AcroForm');
  const fields = pdf.get(rev, acro, 'Fields');
  if (!isArray(fields)) return out;
  const seen = new Set<number>();
  let steps = 0;
  const walk = (ref: unknown, parentName: string, inheritedFt: string | undefined, depth: number) => {
    if (depth > 32 || steps++ > 100_000) return;
    const num = isRef(ref as never) ? (ref as { num: number }).num : null;
    if (num !== null) {
      if (seen.has(num)) return;
      seen.add(num);
    }
    const d = pdf.resolve(rev, ref as never);
    if (!isDict(d)) return;
    const t = textOf(d.v.get('T'));
    const name = t === undefined ? parentName : parentName ? `${parentName}.${t}` : t;
    const ftObj = d.v.get('FT');
    const ft = isName(ftObj) ? ftObj.v : inheritedFt;
    const kids = pdf.get(rev, d, 'Kids');
    if (ft === 'Sig') {
      const vRaw = d.v.get('V');
      const v = pdf.resolve(rev, vRaw);
      if (isDict(v)) {
        out.push({
          field: name,
          sigObjNum: isRef(vRaw) ? vRaw.num : num,
          fieldObjNum: num,
          sig: v,
          order: out.length,
        });
        return;
      }
      // a value that no longer reads as a dictionary (a damaged or wrapped signature) is still a
      // signature: listed as broken, never dropped
      if (isRef(vRaw) && v !== undefined) {
        out.push({
          field: name,
          sigObjNum: vRaw.num,
          fieldObjNum: num,
          sig: { t: 'dict', v: new Map(), start: -1, end: -1 },
          order: out.length,
          unreadable: true,
        });
        return;
      }
    }
    if (isArray(kids)) for (const k of kids.v) walk(k, name, ft, depth + 1);
  };
  for (const f of fields.v) walk(f, '', undefined, 0);
  return out;
}
