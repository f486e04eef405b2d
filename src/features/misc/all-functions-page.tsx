import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { miscTexts } from './texts.ts';

type Key = keyof (typeof miscTexts)['en-US'];

/**
 * /manage/abcde: the spec names it only. Read as "all functions": every part of the workspace on one page,
 * grouped, for users who do not find something in the left menu (the person/company differences applied).
 */
export default function AllFunctionsPage() {
  const tt = useTexts(miscTexts);
  const isCompany = useSessionStore((s) => s.userInfo?.userType === 1);
  const groups: { items: [Key, string][] }[] = [
    {
      items: [
        ['fnLaunch', paths.manageQuicklyFileUpload],
        ['fnUpload', paths.manageFileUpload],
        ['fnTemplates', paths.manageFileTemplate],
        ['fnSignList', paths.pcSignList],
        ['fnMessages', paths.message],
      ],
    },
    {
      items: isCompany
        ? [
            ['fnStamp', paths.accountStamp],
            ['fnOperator', paths.accountOperator],
            ['fnAccount', paths.accountInfo],
          ]
        : [
            ['fnPersonStamp', paths.accountStampPerson],
            ['fnAccount', paths.personalDetails],
          ],
    },
    {
      items: [
        ['fnPackages', paths.manageProductList],
        ['fnStartup', paths.manageStartup],
        ['fnGuide', paths.pcGuide],
        ['fnVerify', paths.fileVerification],
      ],
    },
  ];
  return (
    <main style={{ padding: 24, maxWidth: 1000 }}>
      <h1 style={{ fontSize: 22 }}>{tt('allTitle')}</h1>
      <p style={{ color: '#666' }}>{tt('allIntro')}</p>
      {groups.map((group) => (
        <ul
          key={group.items[0][0]}
          style={{
            listStyle: 'none',
            padding: 0,
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
            gap: 12,
            marginBottom: 24,
          }}
        >
          {group.items.map(([label, to]) => (
            <li key={label}>
              <Link
                to={to}
                style={{
                  display: 'block',
                  padding: 16,
                  background: '#fff',
                  border: '1px solid #f0f0f0',
                  borderRadius: 8,
                }}
              >
                {tt(label)}
              </Link>
            </li>
          ))}
        </ul>
      ))}
    </main>
  );
}
