// Placing by keyword when the keyword occurs more than once: every match is listed with its page and the text
// around it, the box goes to the match the server marks (甲方 followed by 盖章), and the launcher can move it to
// another match, for this signer or, after picking another signer, for that one.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KeywordHit } from '#contract/calls/document.ts';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { emptyDraft, type LaunchDraft, newParty } from '@/features/document/launch-draft.ts';
import { PositionEditor } from '@/features/document/position-editor.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { documentInfo } from '../../fixtures/data.ts';
import { CSIGN, ok, server } from '../../fixtures/msw.ts';
import { freshClientEachTest } from '../../fixtures/state.ts';

const DOC_ID = '00000000-0000-4000-8000-0000000000d1';
const PAGE = { widthPt: 595, heightPt: 842, rotate: 0 };
const doc = documentInfo({ documentId: DOC_ID, pages: 2, pageSizes: [PAGE, PAGE] });

const HITS: KeywordHit[] = [
  { page: 1, rect: [72, 738, 96, 752], before: '', after: '：华东贸易有限公司（以下', isPreferred: false },
  {
    page: 1,
    rect: [300, 738, 324, 752],
    before: '华东贸易有限公司（以下简称',
    after: '）',
    isPreferred: false,
  },
  { page: 2, rect: [72, 198, 96, 212], before: '', after: '（盖章）：', isPreferred: true },
];

function draftWith(names: string[]): LaunchDraft {
  const parties = names.map((name, i) => ({ ...newParty('person'), name, phone: `1390000000${i}` }));
  return { ...emptyDraft('regular'), title: 'Lease', documents: [doc], steps: [{ key: 's1', parties }] };
}

/** The draft as the editor last changed it. */
let current: LaunchDraft;

/** The editor on a draft it keeps up to date, as the launch screen does. */
function Editor({ initial }: { initial: LaunchDraft }) {
  const [draft, setDraft] = useState(initial);
  current = draft;
  return <PositionEditor draft={draft} onChange={(placements) => setDraft({ ...draft, placements })} />;
}

freshClientEachTest();
beforeEach(() => {
  server.use(
    http.get(`/v1/account/api/csign/downloadDocument/${DOC_ID}`, () => new Response('', { status: 404 })),
    http.post(`${CSIGN}/findDocumentKeyword`, () => ok(HITS)),
  );
});

const placementOf = (name: string) => {
  const party = current.steps[0].parties.find((p) => p.name === name)!;
  return current.placements[party.key]?.[DOC_ID];
};

describe('keyword with several matches', () => {
  it.each([
    ['en-US', 'Place by keyword', 'Matches of the keyword', /page 2/, /page 1/],
    ['zh-CN', '按关键字放置', '关键字的匹配位置', /第 2 页/, /第 1 页/],
  ] as const)(
    'lists every match, places at the preferred one, and lets the launcher pick another (%s)',
    async (locale, place, listName, page2, page1) => {
      useI18nStore.getState().setLocale(locale);
      render(
        <AntdProvider>
          <Editor initial={draftWith(['Wang Fang', 'Li Lei'])} />
        </AntdProvider>,
      );
      await userEvent.type(screen.getByRole('textbox'), '甲方');
      await userEvent.click(screen.getByRole('button', { name: place }));
      const list = await screen.findByRole('list', { name: listName });
      const matches = within(list).getAllByRole('button');
      expect(matches).toHaveLength(3);
      expect(matches[0].textContent).toMatch(page1);
      expect(matches[0].textContent).toContain('华东贸易有限公司');
      expect(matches[2].textContent).toMatch(page2);
      expect(matches[2].textContent).toContain('（盖章）');
      // The box went to 甲方（盖章） on page 2, not to the first match in the opening paragraph.
      expect(placementOf('Wang Fang')?.page).toBe(2);
      expect(matches[2].getAttribute('aria-pressed')).toBe('true');
      expect(screen.queryByText(/placed at the first|已放在第一处/)).toBeNull();
      // Another match for the same signer moves the box there.
      await userEvent.click(matches[0]);
      expect(placementOf('Wang Fang')?.page).toBe(1);
      // Pick the other signer, then a match: that signer's box goes there, the first signer's stays.
      await userEvent.click(screen.getByRole('button', { name: /Li Lei/ }));
      await userEvent.click(within(screen.getByRole('list', { name: listName })).getAllByRole('button')[2]);
      expect(placementOf('Li Lei')?.page).toBe(2);
      expect(placementOf('Wang Fang')?.page).toBe(1);
    },
  );
});
