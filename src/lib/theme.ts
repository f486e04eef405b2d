import type { ThemeConfig } from 'antd/es/config-provider';

/** SPEC §9: primary red (the pagination's active colour), success blue. */
export const PRIMARY_COLOR = '#ec1c23';
export const SUCCESS_COLOR = '#1677ff';
export const PAGER_ACTIVE_COLOR = PRIMARY_COLOR;

export const appTheme: ThemeConfig = {
  token: { colorPrimary: PRIMARY_COLOR, colorSuccess: SUCCESS_COLOR, colorLink: PRIMARY_COLOR },
};
