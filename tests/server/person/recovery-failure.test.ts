// A failure stays a failure (issue 15): a database error while moving an account to a new phone reaches
// the error envelope (5000, HTTP 500); before, every failure of that write read as "phone taken" (1203).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { recoverAccountFinish, recoverAccountVerify } from '#contract/calls/person.ts';
import { Code } from '#contract/codes.ts';
import { queryRows } from '#server/db/database.ts';
import { registerAndLogin, uniquePhone, appForFile } from '../helper.ts';
import { passRealName, realNameCode } from '../fixtures/person.ts';

const t = appForFile();

describe('account recovery when the database fails', () => {
  it('answers an internal error, not "phone taken", and leaves the account on its phone', async () => {
    const { agent, phone: oldPhone } = await registerAndLogin(t);
    const { name, idNumber } = await passRealName(t, agent, '冯十一');
    const newPhone = uniquePhone();
    // Every move of a user to this phone fails in the database with an error that is not a unique violation.
    await queryRows(
      t.db,
      sql.raw(`CREATE FUNCTION refuse_phone_move() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'simulated database failure'; END $$`),
    );
    await queryRows(
      t.db,
      sql.raw(`CREATE TRIGGER refuse_phone_move BEFORE UPDATE OF phone ON users
        FOR EACH ROW WHEN (NEW.phone = '${newPhone}') EXECUTE FUNCTION refuse_phone_move()`),
    );
    const smsCode = await realNameCode(t, agent, newPhone, 'recoverAccount');
    const ok = await agent.call<{ ticket: string }>(recoverAccountVerify, {
      userType: 0,
      name,
      idNumber,
      newPhone,
      smsCode,
    });
    expect(ok.body.code).toBe(0);

    const finish = await agent.call(recoverAccountFinish, { userType: 0, ticket: ok.body.data.ticket });
    expect(finish.status).toBe(500);
    expect(finish.body.code).toBe(Code.Internal);
    expect(finish.body.code).not.toBe(Code.PhoneTaken);
    const still = await queryRows<{ phone: string }>(
      t.db,
      sql`SELECT phone FROM users WHERE phone = ${oldPhone}`,
    );
    expect(still).toHaveLength(1);
  });
});
