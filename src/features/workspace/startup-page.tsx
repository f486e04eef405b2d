import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { listLaunchedFlows } from '@/api/flow.ts';
import { checkCurrentLoginUserOpenSign } from '@/api/person.ts';
import { loginRedirect, paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { type StartupStepKey, currentStep, startupSteps } from './startup-steps.ts';
import { workspaceTexts } from './texts.ts';
import { TagRow } from '@/components/tag-row.tsx';

const TITLE: Record<StartupStepKey, keyof (typeof workspaceTexts)['en-US']> = {
  esign: 'stepEsign',
  cert: 'stepCert',
  seal: 'stepSeal',
  package: 'stepPackage',
  contract: 'stepContract',
};

/**
 * /manage/startup and /manage/startup/:next — getting started. Each step says whether it is done, read from
 * the cached login info (certificate, seal, package), checkCurrentLoginUserOpenSign (real name and agreement)
 * and listLaunchedFlows (a first contract). `:next` (a step key or its number) is where to continue; without
 * it, the first step not done. Public: a visitor sees the steps and a log-in button.
 */
export default function StartupPage() {
  const tt = useTexts(workspaceTexts);
  const { next } = useParams();
  const info = useSessionStore((s) => s.userInfo);
  const [isEsignOpen, setIsEsignOpen] = useState<boolean | null>(null);
  const [launchedCount, setLaunchedCount] = useState<number | null>(null);

  useEffect(() => {
    if (!info) return;
    let isLive = true;
    checkCurrentLoginUserOpenSign().then(
      (s) => isLive && setIsEsignOpen(s.isRealNameDone && s.isAgreementAccepted),
      () => isLive && setIsEsignOpen(null),
    );
    listLaunchedFlows({ pageNum: 1, pageSize: 1 }).then(
      (page) => isLive && setLaunchedCount(page.total),
      () => isLive && setLaunchedCount(null),
    );
    return () => {
      isLive = false;
    };
  }, [info]);

  const steps = startupSteps({ info, isEsignOpen, launchedCount });
  const current = info ? currentStep(steps, next) : null;

  return (
    <main style={{ padding: 24, maxWidth: 880 }}>
      <h1 style={{ fontSize: 24, marginBottom: 4 }}>{tt('startupTitle')}</h1>
      <p style={{ color: '#666' }}>{tt('startupIntro')}</p>
      {!info && (
        <p>
          {tt('startupVisitor')}{' '}
          <Link
            to={loginRedirect(paths.loginPage, next ? `${paths.manageStartup}/${next}` : paths.manageStartup)}
          >
            <Button type="primary">{tt('logIn')}</Button>
          </Link>
        </p>
      )}
      {info && current === null && <p role="status">{tt('allDone')}</p>}
      <ol style={{ listStyle: 'none', padding: 0, display: 'grid', gap: 12 }}>
        {steps.map((step, index) => {
          const isCurrent = step.key === current;
          const text =
            step.key === 'esign' && info?.userType === 1
              ? tt('stepEsignCompanyText')
              : tt(`${TITLE[step.key]}Text` as keyof (typeof workspaceTexts)['en-US']);
          return (
            <li
              key={step.key}
              data-testid={`startup-step-${step.key}`}
              data-done={step.isDone}
              aria-current={isCurrent ? 'step' : undefined}
              style={{
                display: 'flex',
                gap: 16,
                alignItems: 'center',
                flexWrap: 'wrap',
                padding: 16,
                border: `1px solid ${isCurrent ? '#ec1c23' : '#f0f0f0'}`,
                borderRadius: 8,
                background: '#fff',
              }}
            >
              <span
                aria-hidden="true"
                style={{
                  width: 32,
                  height: 32,
                  borderRadius: 16,
                  display: 'grid',
                  placeItems: 'center',
                  color: '#fff',
                  background: step.isDone ? '#1677ff' : '#bfbfbf',
                }}
              >
                {step.isDone ? '✓' : index + 1}
              </span>
              <div style={{ flex: '1 1 240px' }}>
                <h2 style={{ fontSize: 16, margin: 0 }}>
                  {tt(TITLE[step.key])}{' '}
                  <TagRow>
                    <Tag color={step.isDone ? 'blue' : 'default'}>
                      {step.isDone ? tt('done') : tt('notDone')}
                    </Tag>
                    {isCurrent && <Tag color="red">{tt('current')}</Tag>}
                  </TagRow>
                </h2>
                <p style={{ margin: '4px 0 0', color: '#666' }}>
                  {text}
                  {step.key === 'package' && info
                    ? ` ${tt('stepPackageFree', { remaining: info.remainQuantity })}`
                    : ''}
                </p>
              </div>
              {info && (
                <Link to={step.link}>
                  <Button type={isCurrent ? 'primary' : 'default'}>
                    {isCurrent ? tt('continue') : tt('goTo')}
                  </Button>
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </main>
  );
}
