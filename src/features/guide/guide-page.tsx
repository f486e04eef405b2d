import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { guideTexts } from './texts.ts';

/** /pc/guide: the two guides, for individuals and for companies. */
export default function GuidePage() {
  const tt = useTexts(guideTexts);
  const cards = [
    { to: paths.pcGuidePerson, title: tt('personTitle'), text: tt('personIntro') },
    { to: paths.pcGuideCompany, title: tt('companyTitle'), text: tt('companyIntro') },
  ];
  return (
    <main style={{ maxWidth: 820, margin: '0 auto', padding: 24 }}>
      <h1 style={{ fontSize: 24 }}>{tt('title')}</h1>
      <p style={{ color: '#666' }}>{tt('intro')}</p>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))', gap: 16 }}>
        {cards.map((c) => (
          <Link
            key={c.to}
            to={c.to}
            style={{
              display: 'block',
              background: '#fff',
              border: '1px solid #f0f0f0',
              borderRadius: 8,
              padding: 20,
            }}
          >
            <h2 style={{ fontSize: 18 }}>{c.title}</h2>
            <p style={{ color: '#666', margin: 0 }}>{c.text}</p>
          </Link>
        ))}
      </div>
    </main>
  );
}
