import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useId, useState } from 'react';
import type { OrderStatus } from '#contract/enums.ts';
import {
  adminCancelOrder,
  adminConfirmOrder,
  adminGetOrderList,
  adminGetPackageList,
  adminRefundOrder,
  getPlatformAdminInfo,
  type OrderPage,
  type PackageInfo,
  type PackageOrder,
} from '@/api/package.ts';
import { Pager } from '@/components/pager.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { MessageFailuresCard } from './message-failures-card.tsx';
import { PackageForm } from './package-form.tsx';
import {
  formatYuan,
  MESSAGE_MS,
  OrderStatusTag,
  usePackageName,
  usePackageTexts,
  useSaleTypeName,
} from './parts.tsx';
import { formatTime } from '@/lib/format-time.ts';
import { showApiError } from '@/api/http.ts';

const STATUSES: OrderStatus[] = ['awaiting_payment', 'paid', 'cancelled', 'refunded', 'expired'];

/**
 * /manage/admin/packages (platform administrators, PLATFORM_ADMIN_PHONES): packages (create, change,
 * take off sale) and orders (confirm the bank transfer, cancel unpaid ones, refund paid ones).
 * The server checks the role on every call; this screen only hides itself from others.
 */
export default function AdminPage() {
  const tt = usePackageTexts();
  const nameOf = usePackageName();
  const typeName = useSaleTypeName();
  const locale = useI18nStore((s) => s.locale);
  const refId = useId();
  const [isAdmin, setIsAdmin] = useState<boolean | null>(null);
  const [packages, setPackages] = useState<PackageInfo[]>([]);
  const [editing, setEditing] = useState<{ pkg: PackageInfo | null } | null>(null);
  const [status, setStatus] = useState<string>('awaiting_payment');
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [orders, setOrders] = useState<OrderPage | null>(null);
  const [confirming, setConfirming] = useState<PackageOrder | null>(null);
  const [reference, setReference] = useState('');

  const loadPackages = useCallback(() => adminGetPackageList().then(setPackages, showApiError), []);
  const loadOrders = useCallback(async () => {
    try {
      setOrders(
        await adminGetOrderList({
          pageNum,
          pageSize: DEFAULT_PAGE_SIZE,
          ...(status ? { status: status as OrderStatus } : {}),
          ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
        }),
      );
    } catch (e) {
      showApiError(e);
    }
  }, [pageNum, status, keyword]);

  useEffect(() => {
    getPlatformAdminInfo().then((r) => setIsAdmin(r.isPlatformAdmin), showApiError);
  }, []);
  useEffect(() => {
    if (isAdmin) void loadPackages();
  }, [isAdmin, loadPackages]);
  useEffect(() => {
    if (isAdmin) void loadOrders();
  }, [isAdmin, loadOrders]);

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      notify.success(tt('done'), MESSAGE_MS);
      await loadOrders();
    } catch (e) {
      showApiError(e);
    }
  };

  if (isAdmin === null) return null;
  if (!isAdmin) return <Alert type="warning" title={tt('notAdmin')} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Card
        title={tt('adminTitle')}
        extra={
          <Button type="primary" onClick={() => setEditing({ pkg: null })}>
            {tt('newPackage')}
          </Button>
        }
      >
        <Table<PackageInfo>
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: true }}
          dataSource={packages}
          columns={[
            { title: tt('name'), render: (_, p) => nameOf(p) },
            {
              title: tt('saleType'),
              render: (_, p) => `${p.saleProductType} ${typeName(p.saleProductType)}`,
            },
            { title: tt('signingsPerCopy'), dataIndex: 'signings' },
            { title: tt('priceYuan'), render: (_, p) => formatYuan(p.priceFen) },
            { title: tt('validityDays'), dataIndex: 'validityDays' },
            {
              title: tt('tiers'),
              render: (_, p) => p.tiers.map((t) => `${t.minCopies}+ ${formatYuan(t.priceFen)}`).join(', '),
            },
            {
              title: tt('status'),
              render: (_, p) =>
                p.isActive ? <Tag color="green">{tt('active')}</Tag> : <Tag>{tt('inactive')}</Tag>,
            },
            {
              title: tt('actions'),
              render: (_, p) => <Button onClick={() => setEditing({ pkg: p })}>{tt('edit')}</Button>,
            },
          ]}
        />
      </Card>
      <Card title={tt('orders')}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            aria-label={tt('status')}
            style={{ width: 160 }}
            value={status}
            onChange={(s: string) => {
              setStatus(s);
              setPageNum(1);
            }}
            options={[
              { value: '', label: tt('all') },
              ...STATUSES.map((s) => ({ value: s, label: tt(`status_${s}`) })),
            ]}
          />
          <Input.Search
            aria-label={tt('orderNo')}
            placeholder={`${tt('orderNo')} / ${tt('buyer')}`}
            allowClear
            onSearch={(v) => {
              setKeyword(v);
              setPageNum(1);
            }}
          />
        </Space>
        <Table<PackageOrder>
          size="small"
          rowKey="orderNo"
          pagination={false}
          scroll={{ x: true }}
          dataSource={orders?.list ?? []}
          columns={[
            { title: tt('orderNo'), dataIndex: 'orderNo' },
            { title: tt('buyer'), dataIndex: 'buyerName' },
            {
              title: tt('package'),
              render: (_, o) =>
                `${tt('copiesOf', { copies: o.copies, name: nameOf(o) })} (${o.totalQuantity})`,
            },
            { title: tt('amount'), render: (_, o) => formatYuan(o.amountFen) },
            { title: tt('status'), render: (_, o) => <OrderStatusTag status={o.status} /> },
            { title: tt('createdAt'), render: (_, o) => formatTime(o.createdAt, locale) },
            {
              title: tt('actions'),
              render: (_, o) => (
                <Space wrap>
                  {o.status === 'awaiting_payment' ? (
                    <>
                      <Button
                        type="primary"
                        aria-label={`${tt('confirm')} ${o.orderNo}`}
                        onClick={() => {
                          setReference('');
                          setConfirming(o);
                        }}
                      >
                        {tt('confirm')}
                      </Button>
                      <Popconfirm
                        title={tt('cancelConfirm')}
                        onConfirm={() => act(() => adminCancelOrder({ orderNo: o.orderNo }))}
                      >
                        <Button>{tt('cancel')}</Button>
                      </Popconfirm>
                    </>
                  ) : null}
                  {o.status === 'paid' ? (
                    <Popconfirm
                      title={tt('refundPrompt', { orderNo: o.orderNo })}
                      onConfirm={() => act(() => adminRefundOrder({ orderNo: o.orderNo }))}
                    >
                      <Button danger>{tt('refund')}</Button>
                    </Popconfirm>
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
        <div style={{ marginTop: 12 }}>
          <Pager total={orders?.total ?? 0} current={pageNum} onChange={(p) => setPageNum(p)} />
        </div>
      </Card>
      <MessageFailuresCard />
      {editing ? (
        <PackageForm
          pkg={editing.pkg}
          isOpen
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notify.success(tt('saved'), MESSAGE_MS);
            void loadPackages();
          }}
        />
      ) : null}
      <Modal
        open={confirming !== null}
        title={tt('confirm')}
        okText={tt('confirm')}
        onCancel={() => setConfirming(null)}
        onOk={async () => {
          const o = confirming;
          setConfirming(null);
          if (o)
            await act(() =>
              adminConfirmOrder({
                orderNo: o.orderNo,
                ...(reference.trim() ? { paymentReference: reference.trim() } : {}),
              }),
            );
        }}
      >
        <p>{confirming ? tt('confirmPrompt', { orderNo: confirming.orderNo }) : ''}</p>
        <label htmlFor={refId}>{tt('paymentReference')}</label>
        <Input id={refId} value={reference} onChange={(e) => setReference(e.target.value)} />
      </Modal>
    </Space>
  );
}
