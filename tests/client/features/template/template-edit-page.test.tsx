// The template editor (issue 28): a field a role's signer fills in the signing room, every kind, options for a
// radio group; what the editor refuses before saving and what it saves.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Template } from '#contract/calls/template.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { COMPANY_SEALS, PERSON_SIGNS } from '../../fixtures/data.ts';

// pdf.js cannot start under jsdom: the page stays "loading" and the boxes are laid out from the page sizes.
vi.mock('@/components/pdf-viewer/load-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/pdf-viewer/load-pdf.ts')>()),
  openPdf: () => new Promise(() => {}),
}));

const TEMPLATE_ID = '00000000-0000-4000-8000-0000000000a1';

const template: Template = {
  templateId: TEMPLATE_ID,
  name: 'Offer',
  description: null,
  documentName: 'offer.pdf',
  pages: 1,
  pageSizes: [{ widthPt: 595, heightPt: 842, rotate: 0 }],
  roles: [
    { key: 'a', name: 'Employer', kind: 'company', stepIndex: 0, applies: COMPANY_SEALS },
    { key: 'b', name: 'Employee', kind: 'person', stepIndex: 1, applies: PERSON_SIGNS },
  ],
  fields: [],
  positions: [
    { roleKey: 'a', page: 1, rect: [72, 80, 200, 190] },
    { roleKey: 'b', page: 1, rect: [330, 130, 450, 190] },
  ],
  signConfigId: null,
  signConfigName: null,
  downloadUrl: `/v1/account/api/csign/downloadTemplatePdf/${TEMPLATE_ID}`,
  createdByName: null,
  createdAt: '2026-11-21T00:00:00.000Z',
  updatedAt: '2026-11-21T00:00:00.000Z',
};

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 1, hasCaCert: true }) });
beforeEach(() => {
  server.use(
    http.post(`${CSIGN}/getTemplate`, () => ok(template)),
    http.post(`${CSIGN}/listSignConfigs`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 100 })),
    http.get(`${CSIGN}/downloadTemplatePdf/:id`, () => new HttpResponse(null, { status: 404 })),
  );
});

/** Adds a field with the button and places it on the page (the new field is selected: a click places it). */
async function addField(button: string, label: string) {
  await userEvent.click(screen.getByRole('button', { name: button }));
  fireEvent.click(screen.getByTestId('template-page-1'), { clientX: 100, clientY: 100 });
  const rows = screen.getAllByTestId('template-field');
  const row = rows[rows.length - 1];
  const input = within(row).getByLabelText('Label');
  await userEvent.clear(input);
  await userEvent.type(input, label);
  return row;
}

/** Chooses an option of an antd select by its text. */
async function choose(combobox: HTMLElement, option: string) {
  await userEvent.click(combobox);
  const options = await screen.findAllByTitle(option);
  await userEvent.click(options[options.length - 1]);
}

describe('the template editor: fields a role fills in the signing room', () => {
  it('saves a text field the employee fills when signing, an attachment sent to the room by itself and a radio group with its options (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const saved: { fields: unknown[] }[] = [];
    server.use(
      http.post(`${CSIGN}/saveTemplate`, async ({ request }) => {
        const body = (await request.json()) as { fields: unknown[] };
        saved.push(body);
        return ok({ ...template, fields: body.fields });
      }),
    );
    renderApp(`/manage/fileTemplate/editFileTemplate?templateId=${TEMPLATE_ID}`);
    await screen.findByTestId('template-page-1', {}, { timeout: 15_000 });

    const text = await addField('Add field: text', 'Home address');
    await choose(
      within(text).getByRole('combobox', { name: 'Who fills it' }),
      'Employee: the signer, in the signing room',
    );
    await userEvent.click(within(text).getByRole('checkbox', { name: 'Required' }));
    // A field filled in the room has no default: the initiator gives nothing for it.
    expect(within(text).queryByLabelText('Default')).toBeNull();
    expect(within(text).getByText('in the signing room')).toBeTruthy();

    // The attachment, a kind only a signer fills, goes to the last role in the room by itself; the initiator
    // is not offered for it.
    const attachment = await addField('Add field: attachment', 'ID copy');
    expect(within(attachment).getByText('in the signing room')).toBeTruthy();
    await userEvent.click(within(attachment).getByRole('combobox', { name: 'Who fills it' }));
    expect(screen.queryAllByTitle('The initiator, at launch')).toHaveLength(1); // the text field's, not this one's
    await userEvent.keyboard('{Escape}');

    const radio = await addField('Add field: radio group', 'Plan');
    await choose(
      within(radio).getByRole('combobox', { name: 'Who fills it' }),
      'Employee: the signer, in the signing room',
    );
    await userEvent.type(within(radio).getByLabelText('Options (one a line)'), 'Basic');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give "Plan" at least two different options')).toBeTruthy();
    expect(saved).toHaveLength(0);

    await userEvent.type(within(radio).getByLabelText('Options (one a line)'), '{Enter}Premium');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const fields = saved[0].fields as Record<string, unknown>[];
    expect(fields.map(({ page, rect, key, ...f }) => f)).toEqual([
      {
        label: 'Home address',
        type: 'text',
        isRequired: true,
        defaultValue: null,
        filler: 'b',
        fillAt: 'room',
      },
      {
        label: 'ID copy',
        type: 'attachment',
        isRequired: true,
        defaultValue: null,
        filler: 'b',
        fillAt: 'room',
      },
      {
        label: 'Plan',
        type: 'radio',
        isRequired: false,
        defaultValue: null,
        filler: 'b',
        fillAt: 'room',
        options: ['Basic', 'Premium'],
      },
    ]);
    for (const f of fields) expect(f.page).toBe(1);
  }, 40_000);
});
