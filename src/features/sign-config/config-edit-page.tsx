import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '@/api/http.ts';
import { getSignConfig, saveSignConfig } from '@/api/sign-config.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { type EditStep, newParty, stepsIssue } from './config-model.ts';
import { StepsEditor } from './steps-editor.tsx';
import { texts } from './texts.ts';

/**
 * /manage/signConfig/addConfig (name, description and steps; `?configId=` edits one) and
 * /manage/signConfig/stepConfig?configId= (the steps of an existing configuration only).
 */
export default function ConfigEditPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const configId = params.get('configId') ?? undefined;
  const isStepsOnly = pathname === paths.manageStepConfig;
  const nameId = useId();
  const descId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [steps, setSteps] = useState<EditStep[]>(() => [
    { parties: [newParty(tt('defaultRoleA'), 'company')] },
    { parties: [newParty(tt('defaultRoleB'), 'person')] },
  ]);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [isLoaded, setIsLoaded] = useState(!configId);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tt is a new function each render; loading once per id is the point
  useEffect(() => {
    if (!configId) return;
    getSignConfig({ configId })
      .then((c) => {
        setName(c.name);
        setDescription(c.description ?? '');
        setSteps(c.steps);
        setIsLoaded(true);
      })
      .catch((e) => {
        setProblem(e instanceof ApiError ? e.message : tt('loadFailed'));
      });
  }, [configId]);

  const save = async () => {
    if (!name.trim()) return setProblem(tt('nameRequired'));
    const issue = stepsIssue(steps);
    if (issue) return setProblem(tt(issue.key, 'name' in issue ? { name: issue.name } : undefined));
    setProblem(null);
    setIsSaving(true);
    try {
      await saveSignConfig({
        configId,
        name: name.trim(),
        description: description.trim() || undefined,
        steps: steps.map((s) => ({ parties: s.parties.map((p) => ({ ...p, name: p.name.trim() })) })),
      });
      notify.success(tt('saved'), 2000);
      navigate(paths.manageSignConfig);
    } catch (e) {
      if (e instanceof ApiError) setProblem(e.message);
    } finally {
      setIsSaving(false);
    }
  };

  const title = isStepsOnly ? tt('stepTitle', { name }) : configId ? tt('editTitle') : tt('addTitle');
  return (
    <main className="sign-config-edit" style={{ padding: 16, maxWidth: 1000 }}>
      <h1 style={{ fontSize: 20 }}>{title}</h1>
      {isStepsOnly ? null : (
        <div style={{ display: 'grid', gap: 12, maxWidth: 480, marginBottom: 16 }}>
          <label htmlFor={nameId}>{tt('name')}</label>
          <Input id={nameId} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
          <label htmlFor={descId}>{tt('description')}</label>
          <Input.TextArea
            id={descId}
            value={description}
            maxLength={200}
            rows={2}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
      )}
      <h2 style={{ fontSize: 16 }}>{tt('steps')}</h2>
      {isLoaded ? <StepsEditor steps={steps} onChange={setSteps} /> : null}
      {problem ? <Alert type="error" showIcon title={problem} style={{ margin: '12px 0' }} /> : null}
      <div style={{ display: 'flex', gap: 12, marginTop: 16 }}>
        <Button type="primary" loading={isSaving} onClick={save} disabled={!isLoaded}>
          {tt('save')}
        </Button>
        <Button onClick={() => navigate(paths.manageSignConfig)}>{tt('cancel')}</Button>
      </div>
    </main>
  );
}
