import ConfigProvider from 'antd/es/config-provider';
import { appTheme } from './theme.ts';

// antd's static message and notification render outside the app's tree (no AntdProvider above them): give
// them the app's theme here, once, when the first of them loads (src/lib/notify.ts, src/lib/offline-worker.ts).
// They show the app's own texts, so antd's locale does not matter to them.
ConfigProvider.config({
  holderRender: (holder) => (
    <ConfigProvider theme={appTheme} button={{ autoInsertSpace: false }}>
      {holder}
    </ConfigProvider>
  ),
});

export const loadMessage = () => import('antd/es/message').then((m) => m.default);
export const loadNotification = () => import('antd/es/notification').then((m) => m.default);
