import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { getServiceStatus, type ServiceStatus } from '@/api/platform.ts';
import { defineTexts, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';

const texts = defineTexts({
  'en-US': {
    title: 'Service status',
    allUp: 'All services are working',
    someDown: 'Some services are not working',
    database: 'Database',
    storage: 'File storage',
    ca: 'Certificate authority',
    tsa: 'Time-stamp authority',
    up: 'Working',
    down: 'Not working',
    ms: '{ms} ms',
    checkedAt: 'Checked at {time}',
    refresh: 'Check again',
    failed: 'The status could not be read: {reason}',
    service: 'Service',
    state: 'State',
    time: 'Time',
  },
  'zh-CN': {
    title: '服务状态',
    allUp: '所有服务运行正常',
    someDown: '部分服务异常',
    database: '数据库',
    storage: '文件存储',
    ca: '证书颁发机构',
    tsa: '时间戳服务',
    up: '正常',
    down: '异常',
    ms: '{ms} 毫秒',
    checkedAt: '检查时间 {time}',
    refresh: '重新检查',
    failed: '无法读取状态：{reason}',
    service: '服务',
    state: '状态',
    time: '耗时',
  },
});

/** How often the screen checks again by itself. */
const REFRESH_MS = 30_000;

/** /monitor: database, storage, CA and TSA, each checked by the server with the time it took. */
export default function MonitorPage() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const [status, setStatus] = useState<ServiceStatus | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isLoading, setIsLoading] = useState(false);
  const load = useCallback(async () => {
    setIsLoading(true);
    try {
      setStatus(await getServiceStatus());
      setProblem(null);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setIsLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <main style={{ maxWidth: 720, margin: '0 auto', padding: 24 }}>
      <h1 style={{ fontSize: 24 }}>{tt('title')}</h1>
      {problem && <p role="alert">{tt('failed', { reason: problem })}</p>}
      {status && (
        <>
          <p role="status" style={{ fontSize: 16, color: status.state === 'up' ? '#1677ff' : '#ec1c23' }}>
            {status.state === 'up' ? tt('allUp') : tt('someDown')}
          </p>
          <table style={{ width: '100%', borderCollapse: 'collapse', background: '#fff' }}>
            <thead>
              <tr>
                {[tt('service'), tt('state'), tt('time')].map((h) => (
                  <th key={h} style={{ textAlign: 'left', padding: 8, borderBottom: '1px solid #f0f0f0' }}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {status.services.map((s) => (
                <tr key={s.service} data-testid={`monitor-${s.service}`}>
                  <td style={{ padding: 8 }}>{tt(s.service)}</td>
                  <td style={{ padding: 8 }}>
                    <Tag color={s.state === 'up' ? 'blue' : 'red'}>
                      {s.state === 'up' ? tt('up') : tt('down')}
                    </Tag>
                    {s.problem && <span style={{ color: '#999' }}>{s.problem}</span>}
                  </td>
                  <td style={{ padding: 8 }}>{tt('ms', { ms: s.ms })}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p style={{ color: '#999' }}>{tt('checkedAt', { time: formatTime(status.checkedAt, locale) })}</p>
        </>
      )}
      <Button onClick={() => void load()} loading={isLoading}>
        {tt('refresh')}
      </Button>
    </main>
  );
}
