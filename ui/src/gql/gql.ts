/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation ProbeApprove($space: String!) {\n    dismissConflict(space: $space, conflictId: \"-\") { message }\n  }\n": typeof types.ProbeApproveDocument,
    "\n  mutation ProbeWrite($space: String!) {\n    createEntity(space: $space, type: \"-\", name: \"-\") { key }\n  }\n": typeof types.ProbeWriteDocument,
    "\n  query ProbeAudit {\n    auditLog(limit: 1) { seq }\n  }\n": typeof types.ProbeAuditDocument,
    "\n  fragment FactFields on Fact {\n    id\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n  }\n": typeof types.FactFieldsFragmentDoc,
    "\n  query SpaceStats($space: String!) {\n    stats(space: $space) {\n      space\n      active\n      flagged\n      openConflicts\n      pendingChanges\n      recentlyRetired\n    }\n  }\n": typeof types.SpaceStatsDocument,
    "\n  subscription LiveFactChanged($space: String!) {\n    factChanged(space: $space) { space change message factId subject value action at }\n  }\n": typeof types.LiveFactChangedDocument,
    "\n  subscription LiveConflictOpened($space: String!) {\n    conflictOpened(space: $space) { space conflictId message factId subject value at }\n  }\n": typeof types.LiveConflictOpenedDocument,
    "\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n": typeof types.VerifyAuditDocument,
    "\n  query AuditLog($limit: Int!, $operation: String) {\n    auditLog(limit: $limit, operation: $operation) {\n      seq at space caller operation outcome\n    }\n  }\n": typeof types.AuditLogDocument,
    "\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n": typeof types.VerifyReceiptDocument,
    "\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $status: Status!,\n                     $asOf: DateTime, $validAt: DateTime, $first: Int) {\n    facts(space: $space, subject: $subject, scope: $scope, status: $status, asOf: $asOf,\n          validAt: $validAt, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n": typeof types.FactsOfSpaceDocument,
    "\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 500) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n": typeof types.NeighbourhoodDocument,
    "\n  query RelatedPaths($space: String!, $question: String!, $hops: Int!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 500) {\n      truncated\n      matchedBy\n      notes\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n": typeof types.RelatedPathsDocument,
    "\n  query OpenConflicts($space: String!, $first: Int) {\n    conflicts(space: $space, status: OPEN, first: $first) {\n      totalCount\n      pageInfo { hasNextPage }\n      edges { node { id kind status severity factIds note by createdAt } }\n    }\n  }\n": typeof types.OpenConflictsDocument,
    "\n  query FactById($space: String!, $id: ID!) {\n    fact(space: $space, id: $id) { ...FactFields }\n  }\n": typeof types.FactByIdDocument,
    "\n  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {\n    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }\n  }\n": typeof types.ResolveConflictDocument,
    "\n  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {\n    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }\n  }\n": typeof types.DismissConflictDocument,
    "\n  query PendingChanges($space: String!, $first: Int) {\n    pendingChanges(space: $space, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n": typeof types.PendingChangesDocument,
    "\n  query CurrentOfSubject($space: String!, $subject: String!) {\n    facts(space: $space, subject: $subject, first: 20) {\n      edges { node { ...FactFields } }\n    }\n  }\n": typeof types.CurrentOfSubjectDocument,
    "\n  mutation ConfirmChange($space: String!, $factId: ID!) {\n    confirmChange(space: $space, factId: $factId) { message }\n  }\n": typeof types.ConfirmChangeDocument,
    "\n  mutation RejectChange($space: String!, $factId: ID!) {\n    rejectChange(space: $space, factId: $factId) { message }\n  }\n": typeof types.RejectChangeDocument,
    "\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime) {\n    history(space: $space, subject: $subject, asOf: $asOf) {\n      subject\n      entries { status value fact { ...FactFields } }\n    }\n  }\n": typeof types.SubjectHistoryDocument,
    "\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n": typeof types.RememberFactsDocument,
    "\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n": typeof types.RememberTextDocument,
};
const documents: Documents = {
    "\n  mutation ProbeApprove($space: String!) {\n    dismissConflict(space: $space, conflictId: \"-\") { message }\n  }\n": types.ProbeApproveDocument,
    "\n  mutation ProbeWrite($space: String!) {\n    createEntity(space: $space, type: \"-\", name: \"-\") { key }\n  }\n": types.ProbeWriteDocument,
    "\n  query ProbeAudit {\n    auditLog(limit: 1) { seq }\n  }\n": types.ProbeAuditDocument,
    "\n  fragment FactFields on Fact {\n    id\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n  }\n": types.FactFieldsFragmentDoc,
    "\n  query SpaceStats($space: String!) {\n    stats(space: $space) {\n      space\n      active\n      flagged\n      openConflicts\n      pendingChanges\n      recentlyRetired\n    }\n  }\n": types.SpaceStatsDocument,
    "\n  subscription LiveFactChanged($space: String!) {\n    factChanged(space: $space) { space change message factId subject value action at }\n  }\n": types.LiveFactChangedDocument,
    "\n  subscription LiveConflictOpened($space: String!) {\n    conflictOpened(space: $space) { space conflictId message factId subject value at }\n  }\n": types.LiveConflictOpenedDocument,
    "\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n": types.VerifyAuditDocument,
    "\n  query AuditLog($limit: Int!, $operation: String) {\n    auditLog(limit: $limit, operation: $operation) {\n      seq at space caller operation outcome\n    }\n  }\n": types.AuditLogDocument,
    "\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n": types.VerifyReceiptDocument,
    "\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $status: Status!,\n                     $asOf: DateTime, $validAt: DateTime, $first: Int) {\n    facts(space: $space, subject: $subject, scope: $scope, status: $status, asOf: $asOf,\n          validAt: $validAt, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n": types.FactsOfSpaceDocument,
    "\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 500) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n": types.NeighbourhoodDocument,
    "\n  query RelatedPaths($space: String!, $question: String!, $hops: Int!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 500) {\n      truncated\n      matchedBy\n      notes\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n": types.RelatedPathsDocument,
    "\n  query OpenConflicts($space: String!, $first: Int) {\n    conflicts(space: $space, status: OPEN, first: $first) {\n      totalCount\n      pageInfo { hasNextPage }\n      edges { node { id kind status severity factIds note by createdAt } }\n    }\n  }\n": types.OpenConflictsDocument,
    "\n  query FactById($space: String!, $id: ID!) {\n    fact(space: $space, id: $id) { ...FactFields }\n  }\n": types.FactByIdDocument,
    "\n  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {\n    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }\n  }\n": types.ResolveConflictDocument,
    "\n  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {\n    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }\n  }\n": types.DismissConflictDocument,
    "\n  query PendingChanges($space: String!, $first: Int) {\n    pendingChanges(space: $space, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n": types.PendingChangesDocument,
    "\n  query CurrentOfSubject($space: String!, $subject: String!) {\n    facts(space: $space, subject: $subject, first: 20) {\n      edges { node { ...FactFields } }\n    }\n  }\n": types.CurrentOfSubjectDocument,
    "\n  mutation ConfirmChange($space: String!, $factId: ID!) {\n    confirmChange(space: $space, factId: $factId) { message }\n  }\n": types.ConfirmChangeDocument,
    "\n  mutation RejectChange($space: String!, $factId: ID!) {\n    rejectChange(space: $space, factId: $factId) { message }\n  }\n": types.RejectChangeDocument,
    "\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime) {\n    history(space: $space, subject: $subject, asOf: $asOf) {\n      subject\n      entries { status value fact { ...FactFields } }\n    }\n  }\n": types.SubjectHistoryDocument,
    "\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n": types.RememberFactsDocument,
    "\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n": types.RememberTextDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ProbeApprove($space: String!) {\n    dismissConflict(space: $space, conflictId: \"-\") { message }\n  }\n"): (typeof documents)["\n  mutation ProbeApprove($space: String!) {\n    dismissConflict(space: $space, conflictId: \"-\") { message }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ProbeWrite($space: String!) {\n    createEntity(space: $space, type: \"-\", name: \"-\") { key }\n  }\n"): (typeof documents)["\n  mutation ProbeWrite($space: String!) {\n    createEntity(space: $space, type: \"-\", name: \"-\") { key }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProbeAudit {\n    auditLog(limit: 1) { seq }\n  }\n"): (typeof documents)["\n  query ProbeAudit {\n    auditLog(limit: 1) { seq }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment FactFields on Fact {\n    id\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n  }\n"): (typeof documents)["\n  fragment FactFields on Fact {\n    id\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SpaceStats($space: String!) {\n    stats(space: $space) {\n      space\n      active\n      flagged\n      openConflicts\n      pendingChanges\n      recentlyRetired\n    }\n  }\n"): (typeof documents)["\n  query SpaceStats($space: String!) {\n    stats(space: $space) {\n      space\n      active\n      flagged\n      openConflicts\n      pendingChanges\n      recentlyRetired\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveFactChanged($space: String!) {\n    factChanged(space: $space) { space change message factId subject value action at }\n  }\n"): (typeof documents)["\n  subscription LiveFactChanged($space: String!) {\n    factChanged(space: $space) { space change message factId subject value action at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveConflictOpened($space: String!) {\n    conflictOpened(space: $space) { space conflictId message factId subject value at }\n  }\n"): (typeof documents)["\n  subscription LiveConflictOpened($space: String!) {\n    conflictOpened(space: $space) { space conflictId message factId subject value at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n"): (typeof documents)["\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLog($limit: Int!, $operation: String) {\n    auditLog(limit: $limit, operation: $operation) {\n      seq at space caller operation outcome\n    }\n  }\n"): (typeof documents)["\n  query AuditLog($limit: Int!, $operation: String) {\n    auditLog(limit: $limit, operation: $operation) {\n      seq at space caller operation outcome\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n"): (typeof documents)["\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $status: Status!,\n                     $asOf: DateTime, $validAt: DateTime, $first: Int) {\n    facts(space: $space, subject: $subject, scope: $scope, status: $status, asOf: $asOf,\n          validAt: $validAt, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n"): (typeof documents)["\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $status: Status!,\n                     $asOf: DateTime, $validAt: DateTime, $first: Int) {\n    facts(space: $space, subject: $subject, scope: $scope, status: $status, asOf: $asOf,\n          validAt: $validAt, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 500) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n"): (typeof documents)["\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 500) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RelatedPaths($space: String!, $question: String!, $hops: Int!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 500) {\n      truncated\n      matchedBy\n      notes\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n"): (typeof documents)["\n  query RelatedPaths($space: String!, $question: String!, $hops: Int!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 500) {\n      truncated\n      matchedBy\n      notes\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpenConflicts($space: String!, $first: Int) {\n    conflicts(space: $space, status: OPEN, first: $first) {\n      totalCount\n      pageInfo { hasNextPage }\n      edges { node { id kind status severity factIds note by createdAt } }\n    }\n  }\n"): (typeof documents)["\n  query OpenConflicts($space: String!, $first: Int) {\n    conflicts(space: $space, status: OPEN, first: $first) {\n      totalCount\n      pageInfo { hasNextPage }\n      edges { node { id kind status severity factIds note by createdAt } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FactById($space: String!, $id: ID!) {\n    fact(space: $space, id: $id) { ...FactFields }\n  }\n"): (typeof documents)["\n  query FactById($space: String!, $id: ID!) {\n    fact(space: $space, id: $id) { ...FactFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {\n    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }\n  }\n"): (typeof documents)["\n  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {\n    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {\n    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }\n  }\n"): (typeof documents)["\n  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {\n    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PendingChanges($space: String!, $first: Int) {\n    pendingChanges(space: $space, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n"): (typeof documents)["\n  query PendingChanges($space: String!, $first: Int) {\n    pendingChanges(space: $space, first: $first) {\n      totalCount\n      edges { node { ...FactFields } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CurrentOfSubject($space: String!, $subject: String!) {\n    facts(space: $space, subject: $subject, first: 20) {\n      edges { node { ...FactFields } }\n    }\n  }\n"): (typeof documents)["\n  query CurrentOfSubject($space: String!, $subject: String!) {\n    facts(space: $space, subject: $subject, first: 20) {\n      edges { node { ...FactFields } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmChange($space: String!, $factId: ID!) {\n    confirmChange(space: $space, factId: $factId) { message }\n  }\n"): (typeof documents)["\n  mutation ConfirmChange($space: String!, $factId: ID!) {\n    confirmChange(space: $space, factId: $factId) { message }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RejectChange($space: String!, $factId: ID!) {\n    rejectChange(space: $space, factId: $factId) { message }\n  }\n"): (typeof documents)["\n  mutation RejectChange($space: String!, $factId: ID!) {\n    rejectChange(space: $space, factId: $factId) { message }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime) {\n    history(space: $space, subject: $subject, asOf: $asOf) {\n      subject\n      entries { status value fact { ...FactFields } }\n    }\n  }\n"): (typeof documents)["\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime) {\n    history(space: $space, subject: $subject, asOf: $asOf) {\n      subject\n      entries { status value fact { ...FactFields } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n"): (typeof documents)["\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n"): (typeof documents)["\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;