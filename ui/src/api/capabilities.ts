/**
 * What the signed-in key may do, so the explorer shows only the controls it can use.
 *
 * The API has no field that describes the caller yet, so each gated capability is asked
 * for with a call the guard checks before anything runs: a mutation naming a space that
 * cannot exist (five parts). A key with the capability gets BAD_USER_INPUT for the space
 * and nothing is done or recorded; a key without it gets FORBIDDEN, which the audit chain
 * records as a denial of that operation. Audit access is asked with `auditLog(limit: 1)`.
 */
import type { Client } from 'urql';

import { graphql } from '../gql';
import { failure } from './errors';

export interface Capabilities {
  write: boolean;
  approve: boolean;
  audit: boolean;
}

export const NONE: Capabilities = { write: false, approve: false, audit: false };

const NO_SUCH_SPACE = '-/-/-/-/-';

const ProbeApprove = graphql(`
  mutation ProbeApprove($space: String!) {
    dismissConflict(space: $space, conflictId: "-") { message }
  }
`);

const ProbeWrite = graphql(`
  mutation ProbeWrite($space: String!) {
    createEntity(space: $space, type: "-", name: "-") { key }
  }
`);

const ProbeAudit = graphql(`
  query ProbeAudit {
    auditLog(limit: 1) { seq }
  }
`);

async function allowed(run: Promise<{ error?: import('urql').CombinedError }>): Promise<boolean> {
  const { error } = await run;
  if (!error) return true;
  const { code } = failure(error);
  return code === 'BAD_USER_INPUT';
}

export async function probe(client: Client): Promise<Capabilities> {
  const vars = { space: NO_SUCH_SPACE };
  const [approve, write] = [
    await allowed(client.mutation(ProbeApprove, vars).toPromise()),
    await allowed(client.mutation(ProbeWrite, vars).toPromise()),
  ];
  const audit = !(await client.query(ProbeAudit, {}, { requestPolicy: 'network-only' })
    .toPromise()).error;
  return { approve, write, audit };
}
