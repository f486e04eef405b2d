// One constant per call (contract/paths/<domain>.ts, zod-free) serves both sides: the server's zod defs
// (contract/calls/) take their address from it, and every client function (src/api/) reaches the path of
// the constant of its own name. Renaming a call is one edit.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CallPath } from '#contract/call-path.ts';
import { allCalls } from '#contract/calls/index-of-calls.ts';
import { callPath } from '#contract/envelope.ts';
import { server } from '../fixtures/msw.ts';

const ROOT = join(import.meta.dirname, '../../..');
const pathModules = import.meta.glob<Record<string, unknown>>('../../../contract/paths/*.ts', {
  eager: true,
});
const apiModules = import.meta.glob<Record<string, unknown>>(['../../../src/api/*.ts', '!**/http.ts'], {
  eager: true,
});

const isCallPath = (v: unknown): v is CallPath =>
  typeof v === 'object' && v !== null && 'path' in v && 'kind' in v && 'name' in v;

/** Every constant of contract/paths/, with the export name it has. */
const constants = Object.entries(pathModules).flatMap(([file, mod]) =>
  Object.entries(mod)
    .filter(([, v]) => isCallPath(v))
    .map(([exportName, v]) => ({ file, exportName, at: v as CallPath })),
);
const byName = new Map(constants.map((c) => [c.at.name, c.at]));

/** A file's code without its comments (a comment may quote a path). */
const codeOf = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n');

const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    return statSync(join(ROOT, rel)).isDirectory() ? filesUnder(rel) : [rel];
  });

describe('call paths: one constant per call, shared by client and server', () => {
  it('has one constant per call: named as the call, its path prefix/name, no path twice', () => {
    expect(constants.length).toBeGreaterThan(130);
    for (const { exportName, at } of constants) {
      expect(at.name, exportName).toBe(exportName);
      expect(at.path).toBe(`${at.prefix}/${at.name}`);
      expect(at.method).toBe(at.kind === 'download' ? 'GET' : 'POST');
    }
    expect(new Set(constants.map((c) => c.at.path)).size).toBe(constants.length);
  });

  it('gives every server call def its address from the constant itself (the same object)', () => {
    const all = new Set(constants.map((c) => c.at));
    for (const def of allCalls) {
      expect(all.has(def.call), `${def.name}: its call is not a constant of contract/paths/`).toBe(true);
      expect(def.call).toBe(byName.get(def.name));
      expect(callPath(def)).toBe(def.call.path);
      expect(def.prefix).toBe(def.call.prefix);
    }
    // ...and every POST constant belongs to exactly one def: none is left without its schema.
    const defined = allCalls.map((d) => d.call);
    for (const { at } of constants.filter((c) => c.at.kind !== 'download'))
      expect(
        defined.filter((c) => c === at),
        at.name,
      ).toHaveLength(1);
  });

  it('writes no call path by hand in contract/calls/ (a def names no call and no prefix itself)', () => {
    for (const file of filesUnder('contract/calls')) {
      const text = codeOf(file);
      const defs = text.match(/defineCall\(/g)?.length ?? 0;
      expect(text.match(/defineCall\(\{\s*call: P\.\w+,/g)?.length ?? 0, file).toBe(defs);
      expect(text, file).not.toMatch(/prefix: \w+_PREFIX/);
      expect(text, file).not.toMatch(/_PREFIX\}\/|\/v1\/(account|jinshang)\//);
    }
  });

  it('writes no call path by hand anywhere in src/', () => {
    for (const file of filesUnder('src').filter((f) => /\.tsx?$/.test(f))) {
      const text = codeOf(file);
      expect(text, file).not.toMatch(/\/v1\/(account|jinshang)|CSIGN_PREFIX|JINSHANG_PREFIX|_PREFIX\}/);
    }
  });

  it('makes every client function POST to the path of the constant of its own name', async () => {
    const seen: string[] = [];
    server.use(
      http.post('*', ({ request }) => {
        seen.push(new URL(request.url).pathname);
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    const file = new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' });
    // The functions whose first argument is not the body.
    const argsOf: Record<string, unknown[]> = {
      loginEsign: ['token', {}],
      uploadDocument: [file],
      checkPdf: [file],
      savePersonImageSeal: [file, 'uploaded'],
      saveCompanyCustomizeSeal: [file, 1],
      uploadPowerOfAttorney: ['company-1', file],
      checkBulkSend: ['template-1', file],
      uploadRoomAttachment: ['room-token', 'field-1', file],
      reviseFlowDocument: [{ userType: 0, flowId: 'f', documentId: 'd' }, file],
    };
    const checked: string[] = [];
    for (const [modFile, mod] of Object.entries(apiModules)) {
      for (const [name, fn] of Object.entries(mod)) {
        const at = byName.get(name);
        if (!at || at.kind === 'download' || typeof fn !== 'function') continue;
        seen.length = 0;
        await (fn as (...a: unknown[]) => Promise<unknown>)(...(argsOf[name] ?? [{}]));
        expect(seen, `${modFile} ${name}`).toEqual([at.path]);
        checked.push(name);
      }
    }
    // Every call the server defines has its client function.
    expect(checked.sort()).toEqual(allCalls.map((d) => d.name).sort());
  });

  it('builds every download URL on the path of its constant', async () => {
    const { documentUrl, signedPdfUrl, auditReportUrl } = await import('@/api/document.ts');
    const { templatePdfUrl } = await import('@/api/template.ts');
    const { reportUrl, verifiedPdfUrl } = await import('@/api/verify.ts');
    const { powerOfAttorneyUrl } = await import('@/api/company.ts');
    const { letterPdfUrl } = await import('@/api/authorisation.ts');
    const { approvalDocumentUrl } = await import('@/api/approval.ts');
    const { bulkSheetUrl, bulkResultsUrl } = await import('@/api/bulk.ts');
    const { fieldAttachmentUrl } = await import('@/api/fields.ts');
    const { ccDocumentUrl, ccReportUrl } = await import('@/api/cc.ts');
    const { contractsZipUrl } = await import('@/api/centre.ts');
    const { flowRevisionUrl } = await import('@/api/revisions.ts');
    const pathOf = (url: string) => new URL(url, 'http://x').pathname;
    const at = (name: string) => byName.get(name)?.path;
    expect(pathOf(documentUrl('d 1'))).toBe(`${at('downloadDocument')}/d%201`);
    expect(pathOf(signedPdfUrl('f', 'd'))).toBe(`${at('downloadSignedPdf')}/f/d`);
    expect(pathOf(auditReportUrl('f'))).toBe(`${at('downloadAuditReport')}/f`);
    expect(pathOf(templatePdfUrl('t'))).toBe(`${at('downloadTemplatePdf')}/t`);
    expect(pathOf(reportUrl('r', 'pdf'))).toBe(`${at('downloadVerifyReport')}/r.pdf`);
    expect(pathOf(verifiedPdfUrl('c'))).toBe(`${at('downloadVerifiedPdf')}/c`);
    expect(pathOf(powerOfAttorneyUrl('c', 1))).toBe(`${at('companyPowerOfAttorney')}/c`);
    expect(pathOf(letterPdfUrl('l'))).toBe(`${at('authorisationLetterPdf')}/l`);
    expect(pathOf(approvalDocumentUrl('a', 'd'))).toBe(`${at('approvalDocument')}/a/d.pdf`);
    expect(pathOf(bulkSheetUrl('t', 'zh'))).toBe(`${at('downloadBulkSheet')}/t`);
    expect(pathOf(bulkResultsUrl('b', 'en'))).toBe(`${at('downloadBulkResults')}/b`);
    expect(pathOf(fieldAttachmentUrl('f', 'room'))).toBe(`${at('downloadFieldAttachment')}/f`);
    expect(pathOf(ccDocumentUrl('t', 'd'))).toBe(`${at('downloadCcDocument')}/d`);
    expect(pathOf(ccReportUrl('t'))).toBe(`${at('downloadCcDocument')}/report`);
    expect(pathOf(contractsZipUrl('z'))).toBe(`${at('downloadContractsZip')}/z`);
    expect(pathOf(flowRevisionUrl('f', 2, 'd'))).toBe(`${at('downloadFlowRevision')}/f/2/d`);
    const downloads = constants.filter((c) => c.at.kind === 'download').map((c) => c.at.name);
    expect(downloads.sort()).toEqual(
      [
        'approvalDocument',
        'authorisationLetterPdf',
        'companyPowerOfAttorney',
        'downloadBulkResults',
        'downloadBulkSheet',
        'downloadAuditReport',
        'downloadDocument',
        'downloadFieldAttachment',
        'downloadFlowRevision',
        'downloadSignedPdf',
        'downloadCcDocument',
        'downloadTemplatePdf',
        'downloadVerifiedPdf',
        'downloadVerifyReport',
        'downloadContractsZip',
      ].sort(),
    );
  });
});
