import Button from 'antd/es/button';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { guideTexts } from './texts.ts';

type Key = keyof (typeof guideTexts)['en-US'];
type GuideStep = { title: Key; text: Key; link: string };

export const PERSON_STEPS: GuideStep[] = [
  { title: 'p1', text: 'p1Text', link: paths.registerPage },
  { title: 'p2', text: 'p2Text', link: paths.managePersonalEsign },
  { title: 'p3', text: 'p3Text', link: paths.managePersonalEsign },
  { title: 'p4', text: 'p4Text', link: paths.accountStampPerson },
  { title: 'p5', text: 'p5Text', link: paths.manageQuicklyFileUpload },
];

export const COMPANY_STEPS: GuideStep[] = [
  { title: 'c1', text: 'c1Text', link: paths.registerPage },
  { title: 'c2', text: 'c2Text', link: paths.manageEnterpriseEsign },
  { title: 'c3', text: 'c3Text', link: paths.accountInfo },
  { title: 'c4', text: 'c4Text', link: paths.accountStamp },
  { title: 'c5', text: 'c5Text', link: paths.accountOperator },
  { title: 'c6', text: 'c6Text', link: paths.manageQuicklyFileUpload },
];

/** A numbered guide: each step with what to do and a button to the screen where it is done. */
export function GuideSteps({ title, intro, steps }: { title: Key; intro: Key; steps: GuideStep[] }) {
  const tt = useTexts(guideTexts);
  return (
    <main style={{ maxWidth: 820, margin: '0 auto', padding: 24 }}>
      <p>
        <Link to={paths.pcGuide}>← {tt('back')}</Link>
      </p>
      <h1 style={{ fontSize: 24 }}>{tt(title)}</h1>
      <p style={{ color: '#666' }}>{tt(intro)}</p>
      <ol style={{ listStyle: 'none', padding: 0, display: 'grid', gap: 12 }}>
        {steps.map((step, i) => (
          <li
            key={step.title}
            style={{ background: '#fff', border: '1px solid #f0f0f0', borderRadius: 8, padding: 16 }}
          >
            <div style={{ color: '#ec1c23', fontSize: 12 }}>{tt('stepOf', { n: i + 1 })}</div>
            <h2 style={{ fontSize: 16, margin: '4px 0' }}>{tt(step.title)}</h2>
            <p style={{ margin: '0 0 8px', color: '#555' }}>{tt(step.text)}</p>
            <Link to={step.link}>
              <Button size="small">{tt('open')}</Button>
            </Link>
          </li>
        ))}
      </ol>
    </main>
  );
}
