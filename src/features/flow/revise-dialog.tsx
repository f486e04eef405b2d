// The launcher's "Upload revised version" (issue 29) in the flow detail: the document (when the flow has
// several), the revised PDF and a note on what changed. When someone signed already the dialog says so and
// asks to confirm that every signature is withdrawn (the server refuses otherwise and names who signed).
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { useId, useState } from 'react';
import type { FlowDetail } from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { REVISION_NOTE_MAX, reviseFlowDocument } from '@/api/revisions.ts';
import { revisionTexts } from '@/components/revisions/revision-texts.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';

/** Who signed already, as the flow detail names them. */
const signedNames = (flow: FlowDetail) =>
  flow.steps
    .flatMap((s) => s.parties)
    .filter((p) => p.status === 'signed')
    .map((p) => p.companyName ?? p.name ?? p.phoneMasked);

export function ReviseButton({ flow, onRevised }: { flow: FlowDetail; onRevised: () => void }) {
  const rt = useTexts(revisionTexts);
  const fileId = useId();
  const noteId = useId();
  const docId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [documentId, setDocumentId] = useState(flow.documents[0]?.documentId ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const [isConfirmed, setIsConfirmed] = useState(false);
  const [refusedNames, setRefusedNames] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const signed = refusedNames ?? signedNames(flow);

  const open = () => {
    setFile(null);
    setNote('');
    setIsConfirmed(false);
    setRefusedNames(null);
    setProblem(null);
    setIsOpen(true);
  };

  const send = async () => {
    if (!file) return setProblem(rt('chooseFile'));
    if (signed.length > 0 && !isConfirmed) return setProblem(rt('mustConfirm'));
    setIsBusy(true);
    setProblem(null);
    try {
      const res = await reviseFlowDocument(
        {
          flowId: flow.flowId,
          documentId,
          note: note.trim() || undefined,
          withdrawSignatures: isConfirmed,
        },
        file,
      );
      notify.success(rt('uploaded', { n: res.revision }), 3000);
      setIsOpen(false);
      onRevised();
    } catch (e) {
      const names = e instanceof ApiError ? (e.data?.signedParties as string[] | undefined) : undefined;
      // Signed meanwhile: the warning and the confirmation appear.
      if (names) setRefusedNames(names);
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <>
      <Button size="small" onClick={open} data-testid="revise-open">
        {rt('upload')}
      </Button>
      <Modal
        open={isOpen}
        title={rt('upload')}
        onCancel={() => setIsOpen(false)}
        footer={null}
        destroyOnHidden
      >
        {flow.documents.length > 1 ? (
          <div style={{ marginBottom: 12 }}>
            <label htmlFor={docId} style={{ display: 'block', marginBottom: 4 }}>
              {rt('document')}
            </label>
            <Select
              id={docId}
              style={{ width: '100%' }}
              value={documentId}
              onChange={setDocumentId}
              options={flow.documents.map((d) => ({ value: d.documentId, label: d.name }))}
            />
          </div>
        ) : null}
        <label htmlFor={fileId} style={{ display: 'block', marginBottom: 4 }}>
          {rt('file')}
        </label>
        <input
          id={fileId}
          type="file"
          accept="application/pdf,.pdf"
          style={{ maxWidth: '100%', marginBottom: 12 }}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <label htmlFor={noteId} style={{ display: 'block', marginBottom: 4 }}>
          {rt('noteLabel')}
        </label>
        <Input.TextArea
          id={noteId}
          rows={3}
          maxLength={REVISION_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        {signed.length > 0 ? (
          <>
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 12 }}
              title={rt('withdrawWarning', { names: signed.join(', ') })}
              data-testid="withdraw-warning"
            />
            <Checkbox
              style={{ marginTop: 8 }}
              checked={isConfirmed}
              onChange={(e) => setIsConfirmed(e.target.checked)}
            >
              {rt('withdrawConfirm')}
            </Checkbox>
          </>
        ) : null}
        {problem ? (
          <div role="alert" style={{ color: '#ff4d4f', marginTop: 8 }}>
            {problem}
          </div>
        ) : null}
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
          <Button onClick={() => setIsOpen(false)}>{rt('cancel')}</Button>
          <Button type="primary" loading={isBusy} onClick={send}>
            {rt('send')}
          </Button>
        </div>
      </Modal>
    </>
  );
}
