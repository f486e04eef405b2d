import { SEAL_TYPES, SealType } from '#contract/enums.ts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Switch from 'antd/es/switch';
import Tabs from 'antd/es/tabs';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type CompanySealDTO, previewSeal, saveCompanyCustomizeSeal, saveCompanySeal } from '@/api/seal.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { ImageUpload } from './image-upload.tsx';
import { MESSAGE_MS, SealStyles, useSealTypeName } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

type Values = {
  sealType: SealType;
  purpose?: string;
  taxpayerNumber?: string;
  legalPersonName?: string;
  anti: 'none' | 'generate' | 'own';
  antiCounterfeitNo?: string;
  hasStar: boolean;
};

const ROUND_OPTIONAL_STAR: readonly number[] = [
  SealType.Contract,
  SealType.Finance,
  SealType.HR,
  SealType.Other,
];
const PREVIEW_DELAY_MS = 300;

function toDTO(v: Values): CompanySealDTO {
  return {
    userType: 1,
    sealType: v.sealType,
    purpose: v.sealType === SealType.Other ? v.purpose?.trim() || undefined : undefined,
    taxpayerNumber: v.sealType === SealType.Invoice ? v.taxpayerNumber?.trim() || undefined : undefined,
    legalPersonName: v.sealType === SealType.LegalPerson ? v.legalPersonName?.trim() || undefined : undefined,
    antiCounterfeitNo: v.anti === 'own' ? v.antiCounterfeitNo?.trim() || undefined : undefined,
    generateAntiCounterfeitNo: v.anti === 'generate' ? true : undefined,
    hasStar: ROUND_OPTIONAL_STAR.includes(v.sealType) ? v.hasStar : undefined,
  };
}

/** A live SVG preview of the definition being filled in (previewSeal), or the server's refusal. */
function useLivePreview(values: Values | undefined) {
  const [svg, setSvg] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const seq = useRef(0);
  // The definition as text: the effect runs again only when it really changes, not on every render.
  const key = values?.sealType ? JSON.stringify(toDTO(values)) : null;
  useEffect(() => {
    if (!key) return;
    const dto = JSON.parse(key) as CompanySealDTO;
    const mine = ++seq.current;
    const timer = setTimeout(async () => {
      try {
        const res = await previewSeal({ sealDTO: dto });
        if (mine !== seq.current) return;
        setSvg(res.svg);
        setProblem(null);
      } catch (error) {
        if (mine !== seq.current) return;
        setSvg(null);
        setProblem(error instanceof Error ? error.message : String(error));
      }
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return { svg, problem };
}

/** /manage/account/stamp/addStamp: choose a type, fill in its fields, see it, save; or upload an image. */
export default function AddStampPage() {
  const tt = useTexts(texts);
  const typeName = useSealTypeName();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const values = Form.useWatch([], form) as Values | undefined;
  const { svg, problem } = useLivePreview(values);
  const [isSaving, setIsSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [uploadType, setUploadType] = useState<SealType>(SealType.Official);

  const save = async (v: Values) => {
    setIsSaving(true);
    setSaveError(null);
    try {
      await saveCompanySeal({ sealDTO: toDTO(v) });
      notify.success(tt('saved'), MESSAGE_MS);
      await refreshLoginInfo();
      navigate(paths.accountStamp);
    } catch (error) {
      setSaveError(showApiError(error));
    } finally {
      setIsSaving(false);
    }
  };

  const upload = async (file: File) => {
    await saveCompanyCustomizeSeal(file, uploadType);
    notify.success(tt('saved'), MESSAGE_MS);
    await refreshLoginInfo();
    navigate(paths.accountStamp);
  };

  const typeOptions = SEAL_TYPES.map((t) => ({ value: t, label: typeName(t) }));
  const sealType = values?.sealType;

  const generate = (
    <div className="seal-two-col">
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ sealType: SealType.Official, anti: 'none', hasStar: true }}
        onFinish={save}
      >
        <Form.Item name="sealType" label={tt('sealType')} rules={[{ required: true }]}>
          <Radio.Group optionType="button" options={typeOptions} />
        </Form.Item>
        {sealType === SealType.Other ? (
          <Form.Item
            name="purpose"
            label={tt('purpose')}
            extra={tt('purposeHelp')}
            rules={[{ required: true, whitespace: true, message: tt('purposeRequired') }]}
          >
            <Input maxLength={10} />
          </Form.Item>
        ) : null}
        {sealType === SealType.Invoice ? (
          <Form.Item
            name="taxpayerNumber"
            label={tt('taxpayerNumber')}
            extra={tt('taxpayerHelp')}
            rules={[{ pattern: /^[0-9A-HJ-NPQRTUWXY]{18}$/, message: tt('taxpayerFormat') }]}
            normalize={(v: string) => v?.toUpperCase()}
          >
            <Input maxLength={18} />
          </Form.Item>
        ) : null}
        {sealType === SealType.LegalPerson ? (
          <Form.Item name="legalPersonName" label={tt('legalPersonName')} extra={tt('legalPersonHelp')}>
            <Input maxLength={5} />
          </Form.Item>
        ) : null}
        {sealType !== SealType.LegalPerson ? (
          <Form.Item name="anti" label={tt('antiCounterfeit')}>
            <Radio.Group
              options={[
                { value: 'none', label: tt('antiNone') },
                { value: 'generate', label: tt('antiGenerate') },
                { value: 'own', label: tt('antiOwn') },
              ]}
            />
          </Form.Item>
        ) : null}
        {values?.anti === 'own' && sealType !== SealType.LegalPerson ? (
          <Form.Item
            name="antiCounterfeitNo"
            label={tt('antiOwnLabel')}
            rules={[{ required: true, pattern: /^[0-9A-Za-z]{4,16}$/, message: tt('antiFormat') }]}
            normalize={(v: string) => v?.toUpperCase()}
          >
            <Input maxLength={16} />
          </Form.Item>
        ) : null}
        {sealType !== undefined && ROUND_OPTIONAL_STAR.includes(sealType) ? (
          <Form.Item name="hasStar" label={tt('hasStar')} valuePropName="checked">
            <Switch />
          </Form.Item>
        ) : null}
        {saveError ? <Alert type="error" title={saveError} style={{ marginBottom: 12 }} /> : null}
        <Button type="primary" htmlType="submit" loading={isSaving} disabled={!svg}>
          {tt('save')}
        </Button>
      </Form>
      <section aria-label={tt('preview')}>
        <h2 style={{ fontSize: 16 }}>{tt('preview')}</h2>
        <div className="seal-preview">
          {svg ? (
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
              alt={`${tt('preview')}: ${sealType ? typeName(sealType) : ''}`}
              style={{ width: 180, maxWidth: '100%' }}
            />
          ) : problem ? (
            <Alert type="warning" title={problem} />
          ) : (
            <span style={{ color: '#999' }}>{tt('previewEmpty')}</span>
          )}
        </div>
      </section>
    </div>
  );

  const uploadTab = (
    <div style={{ maxWidth: 520 }}>
      <Form layout="vertical">
        <Form.Item label={tt('sealType')}>
          <Radio.Group
            optionType="button"
            options={typeOptions}
            value={uploadType}
            onChange={(e) => setUploadType(e.target.value as SealType)}
          />
        </Form.Item>
      </Form>
      <ImageUpload onUpload={upload} />
    </div>
  );

  return (
    <main className="seal-page">
      <SealStyles />
      <h1>{tt('addCompanySeal')}</h1>
      <div className="seal-toolbar">
        <Button onClick={() => navigate(paths.accountStamp)}>{tt('back')}</Button>
      </div>
      <Tabs
        items={[
          { key: 'generate', label: tt('generateTab'), children: generate },
          { key: 'upload', label: tt('uploadTab'), children: uploadTab },
        ]}
      />
    </main>
  );
}
