import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Segmented from 'antd/es/segmented';
import { useMemo, useRef, useState } from 'react';
import { documentUrl, findDocumentKeyword, type KeywordHit } from '@/api/document.ts';
import { type PageGeometry, PdfViewer, type ScreenBox } from '@/components/pdf-viewer.tsx';
import { boxCentredAt, rectCentredOn } from '@/components/pdf-viewer/coords.ts';
import { pointIn, useDragBox } from '@/components/pdf-viewer.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import {
  allParties,
  boxSizePt,
  type DraftField,
  type DraftParty,
  fieldBoxPt,
  type LaunchDraft,
  type Placement,
} from './launch-draft.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

const COLORS = ['#ec1c23', '#1677ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#2f54eb'];
const DRAG_TYPE = 'text/x-esign-party';

export const partyLabel = (p: DraftParty, index: number) =>
  (p.kind === 'company' ? p.companyName || p.name : p.name) || `#${index + 1}`;

/** The chip id of a party's field (a party's chip id is its key). */
const fieldItemId = (partyKey: string, fieldKey: string) => `field:${partyKey}:${fieldKey}`;
type FieldItem = { id: string; party: DraftParty; partyIndex: number; field: DraftField };

/** A placed box: drag it (mouse, pen or finger) to move it; the × removes it. */
function PlacedBox({
  label,
  color,
  box,
  geometry,
  onMove,
  onRemove,
}: {
  label: string;
  color: string;
  box: ScreenBox;
  geometry: PageGeometry;
  onMove: (box: ScreenBox) => void;
  onRemove: () => void;
}) {
  const tt = useTexts(texts);
  const { shown, handlers } = useDragBox(box, geometry, onMove);
  return (
    <div
      className="placed-box"
      data-testid="placed-box"
      data-label={label}
      {...handlers}
      style={{
        position: 'absolute',
        ...shown,
        border: `2px solid ${color}`,
        background: `${color}22`,
        color,
        fontSize: 12,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        cursor: 'move',
        touchAction: 'none',
        userSelect: 'none',
        overflow: 'hidden',
      }}
    >
      {label}
      <button
        type="button"
        aria-label={`${tt('remove')} ${label}`}
        onClick={(e) => {
          e.stopPropagation();
          onRemove();
        }}
        style={{
          position: 'absolute',
          top: 0,
          right: 0,
          border: 0,
          background: color,
          color: '#fff',
          width: 18,
          height: 18,
          lineHeight: '16px',
          padding: 0,
          cursor: 'pointer',
        }}
      >
        ×
      </button>
    </div>
  );
}

/**
 * Placing each party's box on the documents: drag a party chip onto a page (HTML drag and drop), or select it
 * and tap the page (phones, keyboards), or find a keyword; boxes move by dragging. ONE box per party and
 * document, in PDF points of the unrotated page (what launchFlow takes).
 */
export function PositionEditor({
  draft,
  onChange,
  onFieldPlaced,
  height,
}: {
  draft: LaunchDraft;
  onChange: (placements: LaunchDraft['placements']) => void;
  /** A signer field (issue 28) placed on a page of a document, or taken off it (null). */
  onFieldPlaced?: (partyKey: string, fieldKey: string, at: DraftField['at'] | null) => void;
  height?: string | number;
}) {
  const tt = useTexts(texts);
  const parties = allParties(draft);
  const fieldItems: FieldItem[] = parties.flatMap((party, partyIndex) =>
    (party.fields ?? []).map((field) => ({
      id: fieldItemId(party.key, field.key),
      party,
      partyIndex,
      field,
    })),
  );
  const fieldItemOf = (id: string | null) => fieldItems.find((f) => f.id === id);
  const [docIndex, setDocIndex] = useState(0);
  const [selected, setSelected] = useState<string | null>(parties[0]?.key ?? null);
  const [keyword, setKeyword] = useState('');
  const [keywordNote, setKeywordNote] = useState<string | null>(null);
  /** Every match of the last keyword search, on the document it was searched in. */
  const [matches, setMatches] = useState<{ documentId: string; keyword: string; hits: KeywordHit[] } | null>(
    null,
  );
  const [isFinding, setIsFinding] = useState(false);
  const [scrollTo, setScrollTo] = useState<number | undefined>(undefined);
  // Said when a signer was dropped outside every page (issue 11 edge 6): nothing placed, and why.
  const [dropNote, setDropNote] = useState<string | null>(null);
  const isDropped = useRef(false);
  const doc = draft.documents[Math.min(docIndex, draft.documents.length - 1)];
  const url = useMemo(() => (doc ? documentUrl(doc.documentId) : ''), [doc]);

  if (!doc) return null;
  const colorOf = (key: string) => COLORS[parties.findIndex((p) => p.key === key) % COLORS.length];

  const setPlacement = (partyKey: string, at: Placement | null) => {
    const forParty = { ...(draft.placements[partyKey] ?? {}) };
    if (at) forParty[doc.documentId] = at;
    else delete forParty[doc.documentId];
    onChange({ ...draft.placements, [partyKey]: forParty });
  };

  const placeAt = (partyKey: string, g: PageGeometry, point: { x: number; y: number }) => {
    const item = fieldItemOf(partyKey);
    if (item) {
      const box = boxCentredAt(g.page, g.scale, point, fieldBoxPt(item.field.kind));
      onFieldPlaced?.(item.party.key, item.field.key, {
        documentId: doc.documentId,
        page: g.pageNumber,
        rect: g.toPdf(box),
      });
      return;
    }
    const party = parties.find((p) => p.key === partyKey);
    if (!party) return;
    const box = boxCentredAt(g.page, g.scale, point, boxSizePt(party));
    setPlacement(partyKey, { page: g.pageNumber, rect: g.toPdf(box) });
  };

  const renderOverlay = (g: PageGeometry) => (
    <div
      data-testid={`drop-page-${g.pageNumber}`}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={(e) => {
        const key = e.dataTransfer.getData(DRAG_TYPE);
        if (!key) return;
        e.preventDefault();
        isDropped.current = true;
        setDropNote(null);
        placeAt(key, g, pointIn(e));
        setSelected(key);
      }}
      onClick={(e) => {
        if (selected) placeAt(selected, g, pointIn(e));
      }}
      style={{ position: 'absolute', inset: 0, cursor: selected ? 'copy' : 'default' }}
    >
      {parties.map((p, i) => {
        const at = draft.placements[p.key]?.[doc.documentId];
        if (!at || at.page !== g.pageNumber) return null;
        return (
          <PlacedBox
            key={p.key}
            label={partyLabel(p, i)}
            color={colorOf(p.key)}
            box={g.toScreen(at.rect)}
            geometry={g}
            onMove={(box) => setPlacement(p.key, { page: g.pageNumber, rect: g.toPdf(box) })}
            onRemove={() => setPlacement(p.key, null)}
          />
        );
      })}
      {fieldItems.map(({ id, party, partyIndex, field }) => {
        const at = field.at;
        if (!at || at.documentId !== doc.documentId || at.page !== g.pageNumber) return null;
        return (
          <PlacedBox
            key={id}
            label={tt('fieldChip', { who: partyLabel(party, partyIndex), label: field.label })}
            color={colorOf(party.key)}
            box={g.toScreen(at.rect)}
            geometry={g}
            onMove={(box) =>
              onFieldPlaced?.(party.key, field.key, {
                documentId: doc.documentId,
                page: g.pageNumber,
                rect: g.toPdf(box),
              })
            }
            onRemove={() => onFieldPlaced?.(party.key, field.key, null)}
          />
        );
      })}
    </div>
  );

  /** The selected party's box centred on a match of the keyword. */
  const placeAtHit = (hit: KeywordHit) => {
    const page = doc.pageSizes[hit.page - 1];
    const item = fieldItemOf(selected);
    if (item && page) {
      const size = fieldBoxPt(item.field.kind);
      onFieldPlaced?.(item.party.key, item.field.key, {
        documentId: doc.documentId,
        page: hit.page,
        rect: rectCentredOn(hit.rect, size.widthPt, size.heightPt, page),
      });
      setScrollTo(hit.page);
      return;
    }
    const party = parties.find((p) => p.key === selected);
    if (!party || !page) return;
    const size = boxSizePt(party);
    setPlacement(party.key, {
      page: hit.page,
      rect: rectCentredOn(hit.rect, size.widthPt, size.heightPt, page),
    });
    setScrollTo(hit.page);
  };

  /** Whether the selected party's box sits on this match (its centre inside the box). */
  const isPlacedAt = (hit: KeywordHit) => {
    const field = fieldItemOf(selected)?.field.at;
    const at =
      field && field.documentId === doc.documentId
        ? field
        : selected
          ? draft.placements[selected]?.[doc.documentId]
          : undefined;
    if (!at || at.page !== hit.page) return false;
    const cx = (hit.rect[0] + hit.rect[2]) / 2;
    const cy = (hit.rect[1] + hit.rect[3]) / 2;
    return cx >= at.rect[0] && cx <= at.rect[2] && cy >= at.rect[1] && cy <= at.rect[3];
  };

  const placeByKeyword = async () => {
    const item = fieldItemOf(selected);
    const party = item?.party ?? parties.find((p) => p.key === selected);
    if (!party || !keyword.trim()) return;
    setIsFinding(true);
    setKeywordNote(null);
    setMatches(null);
    try {
      const hits = await findDocumentKeyword({ documentId: doc.documentId, keyword: keyword.trim() });
      // The server marks the match where a party seals or signs (甲方（盖章）), not the first in the text.
      const hit = hits.find((h) => h.isPreferred) ?? hits[0];
      if (!hit) {
        setKeywordNote(tt('keywordMissing', { keyword: keyword.trim() }));
        return;
      }
      placeAtHit(hit);
      if (hits.length > 1) {
        setMatches({ documentId: doc.documentId, keyword: keyword.trim(), hits });
        const name = partyLabel(party, parties.indexOf(party));
        setKeywordNote(
          tt('keywordHits', {
            count: hits.length,
            name: item ? tt('fieldChip', { who: name, label: item.field.label }) : name,
          }),
        );
      }
    } catch (e) {
      showApiError(e);
    } finally {
      setIsFinding(false);
    }
  };

  const shownMatches = matches?.documentId === doc.documentId ? matches : null;

  return (
    <div className="position-editor">
      <p style={{ color: '#666' }}>{tt('positionsIntro')}</p>
      {draft.documents.length > 1 ? (
        <Segmented
          aria-label={tt('document')}
          value={docIndex}
          onChange={(v) => setDocIndex(Number(v))}
          options={draft.documents.map((d, i) => ({ label: d.name, value: i }))}
          style={{ marginBottom: 8 }}
        />
      ) : null}
      {dropNote ? (
        <Alert
          type="warning"
          showIcon
          role="alert"
          data-testid="drop-note"
          title={dropNote}
          closable={{ onClose: () => setDropNote(null) }}
          style={{ marginBottom: 8 }}
        />
      ) : null}
      <div
        style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 260px', gap: 16, alignItems: 'start' }}
      >
        <PdfViewer
          key={doc.documentId}
          url={url}
          pageSizes={doc.pageSizes}
          label={doc.name}
          height={height ?? '70vh'}
          renderOverlay={renderOverlay}
          scrollToPage={scrollTo}
        />
        <aside>
          <ul aria-label={tt('stepSigners')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {parties.map((p, i) => {
              const at = draft.placements[p.key]?.[doc.documentId];
              const isSelected = selected === p.key;
              return (
                <li key={p.key} style={{ marginBottom: 8 }}>
                  <button
                    type="button"
                    draggable
                    aria-pressed={isSelected}
                    onDragStart={(e) => {
                      isDropped.current = false;
                      e.dataTransfer.setData(DRAG_TYPE, p.key);
                      e.dataTransfer.effectAllowed = 'copy';
                    }}
                    onDragEnd={() => {
                      // no page took the drop (between pages, beside the viewer, outside the window)
                      if (!isDropped.current) setDropNote(tt('dropOnPage', { who: partyLabel(p, i) }));
                      isDropped.current = false;
                    }}
                    onClick={() => setSelected(p.key)}
                    style={{
                      width: '100%',
                      textAlign: 'left',
                      padding: '8px 10px',
                      border: `2px solid ${colorOf(p.key)}`,
                      borderRadius: 6,
                      background: isSelected ? `${colorOf(p.key)}22` : '#fff',
                      cursor: 'grab',
                    }}
                  >
                    <strong>{partyLabel(p, i)}</strong>
                    <span style={{ display: 'block', fontSize: 12, color: '#666' }}>
                      {p.kind === 'company' ? tt('company') : tt('person')} ·{' '}
                      {at ? tt('placedOn', { page: at.page }) : tt('notPlaced')}
                    </span>
                  </button>
                  {(p.fields ?? []).map((f) => {
                    const id = fieldItemId(p.key, f.key);
                    const isOn = selected === id;
                    const fat = f.at && f.at.documentId === doc.documentId ? f.at : undefined;
                    return (
                      <button
                        key={id}
                        type="button"
                        draggable
                        data-testid="field-chip"
                        aria-pressed={isOn}
                        onDragStart={(e) => {
                          isDropped.current = false;
                          e.dataTransfer.setData(DRAG_TYPE, id);
                          e.dataTransfer.effectAllowed = 'copy';
                        }}
                        onDragEnd={() => {
                          if (!isDropped.current) setDropNote(tt('dropOnPage', { who: f.label }));
                          isDropped.current = false;
                        }}
                        onClick={() => setSelected(id)}
                        style={{
                          width: 'calc(100% - 16px)',
                          marginLeft: 16,
                          marginTop: 4,
                          textAlign: 'left',
                          padding: '4px 8px',
                          border: `1px dashed ${colorOf(p.key)}`,
                          borderRadius: 6,
                          background: isOn ? `${colorOf(p.key)}22` : '#fff',
                          cursor: 'grab',
                          fontSize: 12,
                        }}
                      >
                        ⠿ {f.label || '?'} · {tt(`kind.${f.kind}`)} ·{' '}
                        {fat
                          ? tt('placedOn', { page: fat.page })
                          : f.at
                            ? tt('placedOn', { page: f.at.page })
                            : tt('notPlaced')}
                      </button>
                    );
                  })}
                </li>
              );
            })}
          </ul>
          <label htmlFor="keyword-input" style={{ display: 'block', margin: '12px 0 6px' }}>
            {tt('keyword')}
          </label>
          <Input
            id="keyword-input"
            value={keyword}
            maxLength={50}
            onChange={(e) => setKeyword(e.target.value)}
            onPressEnter={placeByKeyword}
          />
          <Button
            block
            style={{ marginTop: 8 }}
            disabled={!selected || !keyword.trim()}
            loading={isFinding}
            onClick={placeByKeyword}
          >
            {tt('placeByKeyword')}
          </Button>
          {keywordNote ? <Alert style={{ marginTop: 8 }} type="info" title={keywordNote} /> : null}
          {shownMatches ? (
            <ul
              aria-label={tt('keywordMatches')}
              style={{ listStyle: 'none', padding: 0, margin: '8px 0 0', maxHeight: 280, overflowY: 'auto' }}
            >
              {shownMatches.hits.map((hit) => {
                const isHere = isPlacedAt(hit);
                return (
                  <li key={hit.rect.join(',') + hit.page} style={{ marginBottom: 4 }}>
                    <button
                      type="button"
                      aria-pressed={isHere}
                      disabled={!selected}
                      onClick={() => placeAtHit(hit)}
                      style={{
                        width: '100%',
                        textAlign: 'left',
                        padding: '6px 8px',
                        border: `1px solid ${isHere ? '#1677ff' : '#d9d9d9'}`,
                        borderRadius: 6,
                        background: isHere ? '#e6f4ff' : '#fff',
                        cursor: 'pointer',
                        fontSize: 12,
                      }}
                    >
                      <strong>{tt('placedOn', { page: hit.page })}</strong>
                      {hit.isPreferred ? (
                        <span style={{ color: '#389e0d' }}> · {tt('preferredMatch')}</span>
                      ) : null}
                      <span style={{ display: 'block', color: '#555', overflowWrap: 'anywhere' }}>
                        {hit.before ? `…${hit.before}` : ''}
                        <mark>{shownMatches.keyword}</mark>
                        {hit.after ? `${hit.after}…` : ''}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
