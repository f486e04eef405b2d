// Cross-company grants (跨企业授权用印, issue 27): company A's administrator grants company B its contract seal on the
// "Authorisation letters" page (the SMS code from the development outbox); B's administrator accepts it
// on the "Authorisation letters" page, which names A as the grantor; A's contract goes to B's handler, who opens
// the link, sees A's seal "granted by A under letter SQ-…" and seals; the signed PDF is valid in pdfsig. On a PC
// in Chinese and in English.
import { expect, test } from '@playwright/test';
import { uploadPdf } from './package-support.ts';
import { addOperator, openCompany, registerPerson } from './seal-support.ts';
import {
  call,
  contractPdf,
  enterRoomByLink,
  personWithSeal,
  signInRoom,
  signingTexts,
} from './signing-support.ts';
import { type Locale, latestSmsCode, pdfsigValidity } from './support.ts';

const texts = {
  'en-US': {
    ...signingTexts['en-US'],
    menu: 'Authorisation letters',
    newGrant: 'Grant seals to another company',
    granteeCompany: 'The other company (its registered name)',
    issue: 'Sign and issue',
    pending: 'Awaiting acceptance',
    accept: 'Accept',
    inForce: 'In force',
    grantedBy: (a: string) => `granted by ${a}`,
    sealNote: (a: string, n: string) => `granted by ${a} under letter ${n}`,
    grantor: '上海集团控股有限公司',
    grantee: '上海集团贸易子公司有限公司',
  },
  'zh-CN': {
    ...signingTexts['zh-CN'],
    menu: '授权书',
    newGrant: '授权其他企业用印',
    granteeCompany: '被授权企业（登记名称）',
    issue: '签署并出具',
    pending: '待接受',
    accept: '接受',
    inForce: '生效中',
    grantedBy: (a: string) => `由${a}授权`,
    sealNote: (a: string, n: string) => `由${a}授权（授权书 ${n}）`,
    grantor: '杭州集团控股有限公司',
    grantee: '杭州集团贸易子公司有限公司',
  },
} as const;

type Detail = { status: string; documents: { documentId: string }[] };

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = texts[locale];
  test.describe(`cross-company seal grant (${locale}, PC)`, () => {
    test.use({ locale });

    test('A grants its contract seal to B; B accepts; B’s handler seals A’s contract in the room', async ({
      browser,
      page: grantorAdmin,
    }) => {
      test.setTimeout(300_000);
      const baseURL = test.info().project.use.baseURL;
      const contextOf = async () => (await browser.newContext({ locale, baseURL })).newPage();
      // Company A with its contract seal; company B with a handler.
      const grantorPhone = await registerPerson(grantorAdmin);
      const { companyId } = await openCompany(grantorAdmin, t.grantor);
      await call(grantorAdmin.request, 'saveCompanySeal', {
        userType: 1,
        sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true, legalPersonName: '张三' },
      });
      const granteeAdmin = await contextOf();
      await registerPerson(granteeAdmin);
      await openCompany(granteeAdmin, t.grantee);
      const handler = await contextOf();
      const handlerPhone = await personWithSeal(handler, '赵经办');
      await addOperator(granteeAdmin, handler, handlerPhone);

      // A's administrator grants the contract seal to B on the letters page (the intent code from the outbox).
      await grantorAdmin.goto('/#/manage/account/letters');
      await grantorAdmin.getByRole('button', { name: t.newGrant }).click();
      const dialog = grantorAdmin.getByRole('dialog', { name: t.newGrant });
      await dialog.getByLabel(t.granteeCompany).fill(t.grantee);
      await dialog.getByRole('checkbox').first().check();
      await dialog.getByRole('button', { name: t.getCode }).click();
      await dialog
        .getByLabel(t.smsCode, { exact: true })
        .fill(await latestSmsCode(grantorAdmin.request, grantorPhone, 'authorisation:issue'));
      await dialog.getByRole('button', { name: t.issue }).click();
      await expect(dialog).toBeHidden({ timeout: 30_000 });
      const issued = grantorAdmin.getByRole('row').filter({ hasText: t.grantee });
      await expect(issued.getByText(t.pending)).toBeVisible();
      const number = (await issued.locator('code').textContent()) ?? '';
      expect(number).toMatch(/^SQ-\d{4}-\d{6}$/);

      // B's administrator sees who granted it and accepts it.
      await granteeAdmin.goto('/#/manage/account/letters');
      await expect(granteeAdmin.getByRole('heading', { name: t.menu })).toBeVisible();
      const row = granteeAdmin.getByRole('row').filter({ hasText: number });
      await expect(row.getByText(t.grantedBy(t.grantor))).toBeVisible();
      await row.getByRole('button', { name: t.accept }).click();
      await expect(row.getByText(t.inForce)).toBeVisible();

      // A's contract for its own party goes to B's handler.
      const documentId = await uploadPdf(grantorAdmin.request, await contractPdf(), 1);
      const { flowId } = await call<{ flowId: string }>(grantorAdmin.request, 'launchFlow', {
        userType: 1,
        title: locale === 'zh-CN' ? '子公司代签合同' : 'Contract sealed by the group',
        documentIds: [documentId],
        steps: [
          {
            parties: [
              {
                kind: 'company',
                companyId,
                operatorPhone: handlerPhone,
                applies: { companySealType: 102 },
                positions: [{ documentId, page: 1, mm: { left: 20, top: 200, width: 42, height: 42 } }],
              },
            ],
          },
        ],
      });

      // The handler opens the link (phone and SMS code), sees A's seal with its grant, and seals.
      await handler.context().clearCookies();
      await enterRoomByLink(handler, handlerPhone, t);
      await expect(handler.getByText(t.sealNote(t.grantor, number))).toBeVisible();
      await expect(handler.getByRole('radio')).toHaveCount(1);
      await expect(handler.getByRole('radio')).toBeChecked();
      await signInRoom(handler, handlerPhone, t);

      // The signed PDF is valid in pdfsig.
      const detail = await call<Detail>(grantorAdmin.request, 'getFlowDetail', { userType: 1, flowId });
      expect(detail.status).toBe('completed');
      const signed = await grantorAdmin.request.get(
        `/v1/account/api/csign/downloadSignedPdf/${flowId}/${detail.documents[0].documentId}`,
      );
      expect(signed.status()).toBe(200);
      const verdicts = pdfsigValidity(await signed.body());
      expect(verdicts[0]).toBe('Signature is Valid.');
      expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);
    });
  });
}
