import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { getTemplate, type Template, templatePdfUrl } from '@/api/template.ts';
import { paths } from '@/config/paths.ts';
import { type PageGeometry, PdfViewer } from '@/components/pdf-viewer.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { FIELD_COLOR, MovableBox, ROLE_COLORS } from './movable-box.tsx';
import { TYPE_TEXT_KEY } from './template-model.ts';
import { texts } from './texts.ts';

/** /manage/fileTemplate/preview?templateId=: the template's pages with its fields and signing positions. */
export default function TemplatePreviewPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const templateId = useSearchParams()[0].get('templateId') ?? '';
  const [template, setTemplate] = useState<Template | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const url = useMemo(() => (templateId ? templatePdfUrl(templateId) : ''), [templateId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tt is a new function each render; loading once per id is the point
  useEffect(() => {
    if (!templateId) return;
    getTemplate({ templateId })
      .then(setTemplate)
      .catch((e) => setProblem(tt('loadFailed', { reason: e instanceof Error ? e.message : String(e) })));
  }, [templateId]);

  if (problem) return <Alert type="error" showIcon title={problem} style={{ margin: 16 }} />;
  if (!template) return null;
  const roleName = (key: string) => template.roles.find((r) => r.key === key)?.name ?? tt('initiator');
  const colorOf = (key: string) =>
    ROLE_COLORS[
      Math.max(
        0,
        template.roles.findIndex((r) => r.key === key),
      ) % ROLE_COLORS.length
    ];

  const overlay = (g: PageGeometry) => (
    <>
      {template.fields
        .filter((f) => f.page === g.pageNumber)
        .map((f) => (
          <MovableBox
            key={f.key}
            testId="field-box"
            label={f.label}
            color={FIELD_COLOR}
            box={g.toScreen(f.rect)}
            geometry={g}
          />
        ))}
      {template.positions
        .filter((p) => p.page === g.pageNumber)
        .map((p) => (
          <MovableBox
            key={p.roleKey}
            testId="position-box"
            label={tt('signingPosition', { name: roleName(p.roleKey) })}
            color={colorOf(p.roleKey)}
            box={g.toScreen(p.rect)}
            geometry={g}
          />
        ))}
    </>
  );

  return (
    <main className="template-preview" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{template.name}</h1>
      {template.description ? <p style={{ color: '#666' }}>{template.description}</p> : null}
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(260px, 340px)', gap: 16 }}>
        <PdfViewer
          url={url}
          pageSizes={template.pageSizes}
          label={template.documentName}
          height="78vh"
          renderOverlay={overlay}
        />
        <aside>
          <h2 style={{ fontSize: 16 }}>{tt('roles')}</h2>
          <ol>
            {template.roles.map((r) => (
              <li key={r.key}>
                {tt('stepN', { n: r.stepIndex + 1 })} · {r.name} ·{' '}
                {r.kind === 'company' ? tt('company') : tt('person')}
              </li>
            ))}
          </ol>
          <h2 style={{ fontSize: 16 }}>{tt('fields')}</h2>
          <ul>
            {template.fields.map((f) => (
              <li key={f.key}>
                {f.label} ({tt(TYPE_TEXT_KEY[f.type])}
                {f.isRequired ? `, ${tt('required')}` : ''}) · {tt('filler')}: {roleName(f.filler)}
                {f.fillAt === 'room' ? ` · ${tt('filledInRoom')}` : ''}
              </li>
            ))}
          </ul>
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
            <Button
              type="primary"
              onClick={() => navigate(`${paths.manageTemplateDetail}?templateId=${templateId}`)}
            >
              {tt('use')}
            </Button>
            <Button onClick={() => navigate(`${paths.manageEditFileTemplate}?templateId=${templateId}`)}>
              {tt('edit')}
            </Button>
            <Button onClick={() => navigate(paths.manageFileTemplate)}>{tt('backToList')}</Button>
          </div>
        </aside>
      </div>
    </main>
  );
}
