import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { adminGetMessageFailures, type MessageFailure, type MessageFailures } from '@/api/messaging.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { texts } from './message-failures-texts.ts';
import { formatTime } from '@/lib/format-time.ts';

const KINDS = ['temporary', 'throttled', 'invalid_phone', 'config', 'rejected'] as const;

/**
 * Platform administrators: which SMS and e-mail providers are in use and the messages they could not
 * deliver after retries (adminGetMessageFailures), newest first. On /manage/admin/packages.
 */
export function MessageFailuresCard() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const [data, setData] = useState<MessageFailures | null>(null);
  useEffect(() => {
    adminGetMessageFailures({ limit: 50 }).then(setData, () => {});
  }, []);
  if (!data) return null;
  const kindText = (k: string | null) =>
    (KINDS as readonly string[]).includes(k ?? '') ? tt(`kind_${k as (typeof KINDS)[number]}`) : (k ?? '-');
  return (
    <Card
      title={tt('failuresTitle')}
      extra={tt('providers', {
        sms: data.smsProvider,
        mail: data.isMailConfigured ? tt('mailOn') : tt('mailOff'),
      })}
      data-testid="message-failures"
    >
      {data.failures.length === 0 ? (
        <p>{tt('noFailures')}</p>
      ) : (
        <Table<MessageFailure>
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: true }}
          dataSource={data.failures}
          columns={[
            {
              title: tt('time'),
              render: (_, f) => formatTime(f.createdAt, locale),
            },
            { title: tt('channel'), render: (_, f) => `${f.channel} · ${f.provider}` },
            { title: tt('to'), dataIndex: 'to' },
            { title: tt('purpose'), dataIndex: 'purpose' },
            {
              title: tt('reason'),
              render: (_, f) => (
                <Tag color={f.failureKind === 'config' ? 'red' : 'orange'}>{kindText(f.failureKind)}</Tag>
              ),
            },
            {
              title: tt('error'),
              render: (_, f) => [f.errorCode, f.errorMessage].filter(Boolean).join(': '),
            },
            { title: tt('attempts'), dataIndex: 'attempts' },
          ]}
        />
      )}
    </Card>
  );
}
