/**
 * Long-term validation after the last party: the Document Security Store with certificates, OCSP
 * responses and CRLs (one incremental update), then a document time-stamp over the whole file (another
 * one) — PAdES B-LT and B-LTA.
 */
import { isArray, isRef, type PdfObject, type PdfRef } from '../parse/objects.ts';
import type { TimestampFn } from './cms.ts';
import { addAnnots, addToAcroForm, freeFieldName, listFields } from './form.ts';
import { PdfBase } from './pdf-base.ts';
import { arr, dict, finishSigned, IncrementalUpdate, name, textString, withEntries } from './pdf-writer.ts';

type ValidationData = {
  /** DER certificates: signers' chains, the TSA's, the OCSP responder's. */
  certs?: readonly Uint8Array[];
  /** DER OCSPResponse (the full response, as the responder sent it). */
  ocspResponses?: readonly Uint8Array[];
  /** DER CRLs. */
  crls?: readonly Uint8Array[];
};

/**
 * Appends one incremental update with /DSS (/Certs, /OCSPs, /CRLs). An existing DSS is kept and extended:
 * its streams are referenced again, and identical items are not written twice. Refuses like signPdf for
 * unreadable, encrypted or damaged input.
 */
export function addValidationData(input: Uint8Array, data: ValidationData): Uint8Array {
  const base = new PdfBase(input);
  const update = new IncrementalUpdate(base);
  const catalog = base.catalog();
  const old = base.dictOf(catalog.v.get('DSS'));
  const key = (b: Uint8Array) => Buffer.from(b).toString('base64');
  const section = (entry: string, items: readonly Uint8Array[] | undefined): PdfObject | undefined => {
    const prev = base.resolve(old?.v.get(entry));
    const refs: PdfObject[] = isArray(prev) ? [...prev.v] : [];
    const have = new Set<string>();
    for (const r of refs) {
      const s = base.streamOf(r);
      if (s && !s.dict.v.has('Filter')) have.add(key(s.raw));
    }
    for (const item of items ?? []) {
      if (have.has(key(item))) continue;
      have.add(key(item));
      const r = update.alloc();
      update.stream(r, dict({}), item, true);
      refs.push(r);
    }
    return refs.length > 0 ? arr(...refs) : undefined;
  };
  const dss = withEntries(old ?? dict({ Type: name('DSS') }), {
    Certs: section('Certs', data.certs),
    OCSPs: section('OCSPs', data.ocspResponses),
    CRLs: section('CRLs', data.crls),
  });
  const dssRaw = catalog.v.get('DSS');
  if (isRef(dssRaw) && old) update.put(dssRaw, dss);
  else {
    const r = update.alloc();
    update.put(r, dss);
    update.put(base.rootRef(), withEntries(catalog, { DSS: r }));
  }
  return update.finish().bytes;
}

type DocumentTimestampOptions = {
  fieldName?: string;
  /** Bytes reserved for the token; default 12 KiB. */
  contentsReserve?: number;
};

/**
 * Appends a document time-stamp (/Type /DocTimeStamp, /SubFilter /ETSI.RFC3161): an invisible signature
 * field whose /Contents is an RFC 3161 token over SHA-256 of the whole file but that token. One update.
 */
export async function addDocumentTimestamp(
  input: Uint8Array,
  timestamp: TimestampFn,
  opts: DocumentTimestampOptions = {},
): Promise<Uint8Array> {
  const base = new PdfBase(input);
  const update = new IncrementalUpdate(base);
  const page = base.page(0);
  const fieldRef = update.alloc();
  const sigRef = update.alloc();
  const ap = update.alloc();
  // An empty appearance: viewers and PDF/A want one even for an invisible widget.
  update.stream(
    ap,
    dict({ Type: name('XObject'), Subtype: name('Form'), BBox: arr(0, 0, 0, 0) }),
    new Uint8Array(),
  );
  update.put(
    fieldRef,
    dict({
      FT: name('Sig'),
      T: textString(opts.fieldName ?? freeFieldName(listFields(base), 'DocTimeStamp')),
      V: sigRef,
      Type: name('Annot'),
      Subtype: name('Widget'),
      Rect: arr(0, 0, 0, 0),
      P: page.ref as PdfRef,
      F: 132,
      AP: dict({ N: ap }),
    }),
  );
  addToAcroForm(update, base, [fieldRef]);
  addAnnots(update, base, page, [fieldRef]);
  update.signature(
    sigRef,
    dict({ Type: name('DocTimeStamp'), Filter: name('Adobe.PPKLite'), SubFilter: name('ETSI.RFC3161') }),
    opts.contentsReserve ?? 12 * 1024,
  );
  return finishSigned(update, (digest) => timestamp(digest));
}
