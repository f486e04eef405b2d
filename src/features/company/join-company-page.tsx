import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import List from 'antd/es/list';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { joinCompany, searchCompanyToJoin } from '@/api/company.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { notify } from '@/lib/notify.ts';
import { MobilePage, useAction, useCompanyTexts } from './parts.tsx';

type Hit = { companyId: string; companyName: string; creditCode: string };

/** /mobile/joinCompany: find a company by name or credit code (or enter an invitation code) and ask to join. */
export default function JoinCompanyPage() {
  const tt = useCompanyTexts();
  const navigate = useSafeNavigate();
  const [params] = useSearchParams();
  const [hits, setHits] = useState<Hit[] | null>(null);
  const { isBusy, run } = useAction();

  const ask = (body: { companyId?: string; inviteCode?: string }) =>
    run(async () => {
      await joinCompany(body);
      notify.success(tt('requested'), 2000);
      navigate(paths.mobileJoinCompanyWaiting);
    });

  return (
    <MobilePage title={tt('joinTitle')}>
      <Form
        name="joinByCode"
        layout="vertical"
        initialValues={{ inviteCode: params.get('inviteCode') ?? '' }}
        onFinish={(v: { inviteCode: string }) => ask({ inviteCode: v.inviteCode.trim() })}
      >
        <Form.Item
          name="inviteCode"
          label={tt('inviteCode')}
          rules={[{ required: true, min: 4, message: tt('required') }]}
        >
          <Input maxLength={32} autoCapitalize="characters" />
        </Form.Item>
        <Button htmlType="submit" loading={isBusy} block>
          {tt('joinByCode')}
        </Button>
      </Form>
      <Form
        name="joinSearch"
        layout="vertical"
        style={{ marginTop: 24 }}
        onFinish={(v: { keyword: string }) =>
          run(async () => setHits(await searchCompanyToJoin({ keyword: v.keyword.trim() })))
        }
      >
        <Form.Item
          name="keyword"
          label={tt('searchKeyword')}
          rules={[{ required: true, whitespace: true, min: 2, message: tt('required') }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={isBusy} block>
          {tt('search')}
        </Button>
      </Form>
      {hits && (
        <List
          style={{ marginTop: 16 }}
          dataSource={hits}
          locale={{ emptyText: tt('noResults') }}
          renderItem={(hit) => (
            <List.Item
              actions={[
                <Button key="join" type="link" onClick={() => void ask({ companyId: hit.companyId })}>
                  {tt('requestJoin')}
                </Button>,
              ]}
            >
              <List.Item.Meta title={hit.companyName} description={hit.creditCode} />
            </List.Item>
          )}
        />
      )}
    </MobilePage>
  );
}
