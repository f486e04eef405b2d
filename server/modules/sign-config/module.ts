import {
  deleteSignConfig,
  getSignConfig,
  listSignConfigs,
  saveSignConfig,
} from '#contract/calls/sign-config.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../server-module.ts';
import * as configs from './service.ts';

/** Signing configurations: reusable workflows of steps and roles (/manage/signConfig). */
export const signConfigModule: ServerModule = {
  name: 'sign-config',
  register(app, deps) {
    registerCall(app, saveSignConfig, async ({ body, requireSession }) =>
      configs.save(deps, requireSession(), body),
    );
    registerCall(app, getSignConfig, async ({ body, requireSession }) =>
      configs.detail(deps, requireSession(), body.configId),
    );
    registerCall(app, listSignConfigs, async ({ body, requireSession }) =>
      configs.list(deps, requireSession(), body),
    );
    registerCall(app, deleteSignConfig, async ({ body, requireSession }) => {
      await configs.remove(deps, requireSession(), body.configId);
      return null;
    });
  },
};
