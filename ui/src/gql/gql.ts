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
    "\n  fragment FactFields on Fact {\n    id\n    factId\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n    eventId\n    undoneBy\n  }\n": typeof types.FactFieldsFragmentDoc,
    "\n  query SpaceStats($space: String!, $asOf: DateTime, $validAt: DateTime) {\n    stats(space: $space, asOf: $asOf, validAt: $validAt) {\n      space\n      active\n      flagged\n      superseded\n      historical\n      openConflicts\n      pendingChanges\n      entities\n      recentlyRetired\n    }\n  }\n": typeof types.SpaceStatsDocument,
    "\n  subscription LiveFactChanged($space: String!, $after: String) {\n    factChanged(space: $space, after: $after) { cursor change message at }\n  }\n": typeof types.LiveFactChangedDocument,
    "\n  subscription LiveConflictOpened($space: String!, $after: String) {\n    conflictOpened(space: $space, after: $after) { cursor message at }\n  }\n": typeof types.LiveConflictOpenedDocument,
    "\n  subscription LiveConflictClosed($space: String!, $after: String) {\n    conflictClosed(space: $space, after: $after) { cursor message at }\n  }\n": typeof types.LiveConflictClosedDocument,
    "\n  subscription LivePendingChanged($space: String!, $after: String) {\n    pendingChanged(space: $space, after: $after) { cursor message at }\n  }\n": typeof types.LivePendingChangedDocument,
    "\n  query OpenSession($space: String!) {\n    viewer { name tenant role capabilities allowedSpaces tenantWide local }\n    serverInfo { version llmConfigured neo4jBrowserUrl }\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n": typeof types.OpenSessionDocument,
    "\n  query SwitchSpace($space: String!) {\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n": typeof types.SwitchSpaceDocument,
    "\n  query TenantSpaces($first: Int, $after: String, $asOf: DateTime, $validAt: DateTime) {\n    spaces(first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        key user agent run\n        stats(asOf: $asOf, validAt: $validAt) { active openConflicts pendingChanges }\n      }\n    }\n  }\n": typeof types.TenantSpacesDocument,
    "\n  mutation UndoEvent($space: String!, $eventId: ID!, $force: Boolean!) {\n    undoEvent(space: $space, eventId: $eventId, force: $force) {\n      eventId undone message lines forced\n    }\n  }\n": typeof types.UndoEventDocument,
    "\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n": typeof types.VerifyAuditDocument,
    "\n  query AuditPage($first: Int, $after: String, $operation: String) {\n    auditEntries(first: $first, after: $after, operation: $operation) {\n      pageInfo { hasNextPage endCursor }\n      nodes { seq at space caller operation outcome }\n    }\n  }\n": typeof types.AuditPageDocument,
    "\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n": typeof types.VerifyReceiptDocument,
    "\n  query ChangesBetween($space: String!, $from: DateTime!, $to: DateTime, $clock: Clock!,\n                       $first: Int, $after: String) {\n    changes(space: $space, from: $from, to: $to, clock: $clock, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        cursor\n        node {\n          subject\n          scope\n          kind\n          before { factId value }\n          after { factId value }\n          causes { step factId at event }\n        }\n      }\n    }\n  }\n": typeof types.ChangesBetweenDocument,
    "\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $source: String,\n                     $statuses: [Status!], $text: String, $asOf: DateTime, $validAt: DateTime,\n                     $first: Int, $after: String) {\n    facts(space: $space, subject: $subject, scope: $scope, source: $source,\n          statuses: $statuses, text: $text, asOf: $asOf, validAt: $validAt, first: $first,\n          after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { ...FactFields } }\n    }\n  }\n": typeof types.FactsOfSpaceDocument,
    "\n  query FindEntities($space: String!, $query: String!, $asOf: DateTime, $validAt: DateTime) {\n    searchEntities(space: $space, query: $query, first: 20, asOf: $asOf, validAt: $validAt) {\n      totalCount\n      nodes { key type name aliases }\n    }\n  }\n": typeof types.FindEntitiesDocument,
    "\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 150) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n": typeof types.NeighbourhoodDocument,
    "\n  query RelatedPaths($space: String!, $question: String!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 100) {\n      truncated\n      matchedBy\n      notes\n      ranked\n      answers { key type name }\n      unexplained\n      guessed\n      start { key type name }\n      entities { key type name }\n      paths { explain matched sources readings edges { factId type relation head tail status } }\n    }\n  }\n": typeof types.RelatedPathsDocument,
    "\n  query InboxPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                  $validAt: DateTime) {\n    conflicts(space: $space, excludeKinds: [PENDING], first: $first, after: $after,\n              asOf: $asOf, validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id conflictId kind status severity subject scope note by createdAt\n          facts { ...FactFields }\n        }\n      }\n    }\n  }\n": typeof types.InboxPageDocument,
    "\n  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {\n    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }\n  }\n": typeof types.ResolveConflictDocument,
    "\n  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {\n    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }\n  }\n": typeof types.DismissConflictDocument,
    "\n  query PendingPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                    $validAt: DateTime) {\n    conflicts(space: $space, kinds: [PENDING], first: $first, after: $after, asOf: $asOf,\n              validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { conflictId status note facts { ...FactFields } } }\n    }\n  }\n": typeof types.PendingPageDocument,
    "\n  mutation ConfirmChange($space: String!, $factId: ID!) {\n    confirmChange(space: $space, factId: $factId) { message }\n  }\n": typeof types.ConfirmChangeDocument,
    "\n  mutation RejectChange($space: String!, $factId: ID!) {\n    rejectChange(space: $space, factId: $factId) { message }\n  }\n": typeof types.RejectChangeDocument,
    "\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime, $validAt: DateTime,\n                       $last: Int, $before: String) {\n    history(space: $space, subject: $subject, asOf: $asOf, validAt: $validAt, last: $last,\n            before: $before) {\n      subject\n      totalCount\n      pageInfo { hasPreviousPage startCursor }\n      edges {\n        cursor\n        node {\n          status\n          value\n          fact {\n            ...FactFields\n            supersededBy { factId value status recordedAt retracts }\n          }\n        }\n      }\n    }\n  }\n": typeof types.SubjectHistoryDocument,
    "\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n": typeof types.RememberFactsDocument,
    "\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n": typeof types.RememberTextDocument,
};
const documents: Documents = {
    "\n  fragment FactFields on Fact {\n    id\n    factId\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n    eventId\n    undoneBy\n  }\n": types.FactFieldsFragmentDoc,
    "\n  query SpaceStats($space: String!, $asOf: DateTime, $validAt: DateTime) {\n    stats(space: $space, asOf: $asOf, validAt: $validAt) {\n      space\n      active\n      flagged\n      superseded\n      historical\n      openConflicts\n      pendingChanges\n      entities\n      recentlyRetired\n    }\n  }\n": types.SpaceStatsDocument,
    "\n  subscription LiveFactChanged($space: String!, $after: String) {\n    factChanged(space: $space, after: $after) { cursor change message at }\n  }\n": types.LiveFactChangedDocument,
    "\n  subscription LiveConflictOpened($space: String!, $after: String) {\n    conflictOpened(space: $space, after: $after) { cursor message at }\n  }\n": types.LiveConflictOpenedDocument,
    "\n  subscription LiveConflictClosed($space: String!, $after: String) {\n    conflictClosed(space: $space, after: $after) { cursor message at }\n  }\n": types.LiveConflictClosedDocument,
    "\n  subscription LivePendingChanged($space: String!, $after: String) {\n    pendingChanged(space: $space, after: $after) { cursor message at }\n  }\n": types.LivePendingChangedDocument,
    "\n  query OpenSession($space: String!) {\n    viewer { name tenant role capabilities allowedSpaces tenantWide local }\n    serverInfo { version llmConfigured neo4jBrowserUrl }\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n": types.OpenSessionDocument,
    "\n  query SwitchSpace($space: String!) {\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n": types.SwitchSpaceDocument,
    "\n  query TenantSpaces($first: Int, $after: String, $asOf: DateTime, $validAt: DateTime) {\n    spaces(first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        key user agent run\n        stats(asOf: $asOf, validAt: $validAt) { active openConflicts pendingChanges }\n      }\n    }\n  }\n": types.TenantSpacesDocument,
    "\n  mutation UndoEvent($space: String!, $eventId: ID!, $force: Boolean!) {\n    undoEvent(space: $space, eventId: $eventId, force: $force) {\n      eventId undone message lines forced\n    }\n  }\n": types.UndoEventDocument,
    "\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n": types.VerifyAuditDocument,
    "\n  query AuditPage($first: Int, $after: String, $operation: String) {\n    auditEntries(first: $first, after: $after, operation: $operation) {\n      pageInfo { hasNextPage endCursor }\n      nodes { seq at space caller operation outcome }\n    }\n  }\n": types.AuditPageDocument,
    "\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n": types.VerifyReceiptDocument,
    "\n  query ChangesBetween($space: String!, $from: DateTime!, $to: DateTime, $clock: Clock!,\n                       $first: Int, $after: String) {\n    changes(space: $space, from: $from, to: $to, clock: $clock, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        cursor\n        node {\n          subject\n          scope\n          kind\n          before { factId value }\n          after { factId value }\n          causes { step factId at event }\n        }\n      }\n    }\n  }\n": types.ChangesBetweenDocument,
    "\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $source: String,\n                     $statuses: [Status!], $text: String, $asOf: DateTime, $validAt: DateTime,\n                     $first: Int, $after: String) {\n    facts(space: $space, subject: $subject, scope: $scope, source: $source,\n          statuses: $statuses, text: $text, asOf: $asOf, validAt: $validAt, first: $first,\n          after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { ...FactFields } }\n    }\n  }\n": types.FactsOfSpaceDocument,
    "\n  query FindEntities($space: String!, $query: String!, $asOf: DateTime, $validAt: DateTime) {\n    searchEntities(space: $space, query: $query, first: 20, asOf: $asOf, validAt: $validAt) {\n      totalCount\n      nodes { key type name aliases }\n    }\n  }\n": types.FindEntitiesDocument,
    "\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 150) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n": types.NeighbourhoodDocument,
    "\n  query RelatedPaths($space: String!, $question: String!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 100) {\n      truncated\n      matchedBy\n      notes\n      ranked\n      answers { key type name }\n      unexplained\n      guessed\n      start { key type name }\n      entities { key type name }\n      paths { explain matched sources readings edges { factId type relation head tail status } }\n    }\n  }\n": types.RelatedPathsDocument,
    "\n  query InboxPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                  $validAt: DateTime) {\n    conflicts(space: $space, excludeKinds: [PENDING], first: $first, after: $after,\n              asOf: $asOf, validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id conflictId kind status severity subject scope note by createdAt\n          facts { ...FactFields }\n        }\n      }\n    }\n  }\n": types.InboxPageDocument,
    "\n  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {\n    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }\n  }\n": types.ResolveConflictDocument,
    "\n  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {\n    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }\n  }\n": types.DismissConflictDocument,
    "\n  query PendingPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                    $validAt: DateTime) {\n    conflicts(space: $space, kinds: [PENDING], first: $first, after: $after, asOf: $asOf,\n              validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { conflictId status note facts { ...FactFields } } }\n    }\n  }\n": types.PendingPageDocument,
    "\n  mutation ConfirmChange($space: String!, $factId: ID!) {\n    confirmChange(space: $space, factId: $factId) { message }\n  }\n": types.ConfirmChangeDocument,
    "\n  mutation RejectChange($space: String!, $factId: ID!) {\n    rejectChange(space: $space, factId: $factId) { message }\n  }\n": types.RejectChangeDocument,
    "\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime, $validAt: DateTime,\n                       $last: Int, $before: String) {\n    history(space: $space, subject: $subject, asOf: $asOf, validAt: $validAt, last: $last,\n            before: $before) {\n      subject\n      totalCount\n      pageInfo { hasPreviousPage startCursor }\n      edges {\n        cursor\n        node {\n          status\n          value\n          fact {\n            ...FactFields\n            supersededBy { factId value status recordedAt retracts }\n          }\n        }\n      }\n    }\n  }\n": types.SubjectHistoryDocument,
    "\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n": types.RememberFactsDocument,
    "\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n": types.RememberTextDocument,
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
export function graphql(source: "\n  fragment FactFields on Fact {\n    id\n    factId\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n    eventId\n    undoneBy\n  }\n"): (typeof documents)["\n  fragment FactFields on Fact {\n    id\n    factId\n    space\n    subject\n    value\n    scope\n    kind\n    timeRef\n    status\n    confidence\n    source\n    sourceRef\n    raw\n    category\n    head\n    relation\n    tail\n    validFrom\n    validTo\n    recordedAt\n    retiredAt\n    supersedes\n    retracts\n    eventId\n    undoneBy\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SpaceStats($space: String!, $asOf: DateTime, $validAt: DateTime) {\n    stats(space: $space, asOf: $asOf, validAt: $validAt) {\n      space\n      active\n      flagged\n      superseded\n      historical\n      openConflicts\n      pendingChanges\n      entities\n      recentlyRetired\n    }\n  }\n"): (typeof documents)["\n  query SpaceStats($space: String!, $asOf: DateTime, $validAt: DateTime) {\n    stats(space: $space, asOf: $asOf, validAt: $validAt) {\n      space\n      active\n      flagged\n      superseded\n      historical\n      openConflicts\n      pendingChanges\n      entities\n      recentlyRetired\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveFactChanged($space: String!, $after: String) {\n    factChanged(space: $space, after: $after) { cursor change message at }\n  }\n"): (typeof documents)["\n  subscription LiveFactChanged($space: String!, $after: String) {\n    factChanged(space: $space, after: $after) { cursor change message at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveConflictOpened($space: String!, $after: String) {\n    conflictOpened(space: $space, after: $after) { cursor message at }\n  }\n"): (typeof documents)["\n  subscription LiveConflictOpened($space: String!, $after: String) {\n    conflictOpened(space: $space, after: $after) { cursor message at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveConflictClosed($space: String!, $after: String) {\n    conflictClosed(space: $space, after: $after) { cursor message at }\n  }\n"): (typeof documents)["\n  subscription LiveConflictClosed($space: String!, $after: String) {\n    conflictClosed(space: $space, after: $after) { cursor message at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LivePendingChanged($space: String!, $after: String) {\n    pendingChanged(space: $space, after: $after) { cursor message at }\n  }\n"): (typeof documents)["\n  subscription LivePendingChanged($space: String!, $after: String) {\n    pendingChanged(space: $space, after: $after) { cursor message at }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpenSession($space: String!) {\n    viewer { name tenant role capabilities allowedSpaces tenantWide local }\n    serverInfo { version llmConfigured neo4jBrowserUrl }\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n"): (typeof documents)["\n  query OpenSession($space: String!) {\n    viewer { name tenant role capabilities allowedSpaces tenantWide local }\n    serverInfo { version llmConfigured neo4jBrowserUrl }\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SwitchSpace($space: String!) {\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n"): (typeof documents)["\n  query SwitchSpace($space: String!) {\n    changeCursor(space: $space)\n    stats(space: $space) { space }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TenantSpaces($first: Int, $after: String, $asOf: DateTime, $validAt: DateTime) {\n    spaces(first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        key user agent run\n        stats(asOf: $asOf, validAt: $validAt) { active openConflicts pendingChanges }\n      }\n    }\n  }\n"): (typeof documents)["\n  query TenantSpaces($first: Int, $after: String, $asOf: DateTime, $validAt: DateTime) {\n    spaces(first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        key user agent run\n        stats(asOf: $asOf, validAt: $validAt) { active openConflicts pendingChanges }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UndoEvent($space: String!, $eventId: ID!, $force: Boolean!) {\n    undoEvent(space: $space, eventId: $eventId, force: $force) {\n      eventId undone message lines forced\n    }\n  }\n"): (typeof documents)["\n  mutation UndoEvent($space: String!, $eventId: ID!, $force: Boolean!) {\n    undoEvent(space: $space, eventId: $eventId, force: $force) {\n      eventId undone message lines forced\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n"): (typeof documents)["\n  query VerifyAudit($deep: Boolean!) {\n    verifyAudit(deep: $deep) { ok rows headSeq deep problems }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditPage($first: Int, $after: String, $operation: String) {\n    auditEntries(first: $first, after: $after, operation: $operation) {\n      pageInfo { hasNextPage endCursor }\n      nodes { seq at space caller operation outcome }\n    }\n  }\n"): (typeof documents)["\n  query AuditPage($first: Int, $after: String, $operation: String) {\n    auditEntries(first: $first, after: $after, operation: $operation) {\n      pageInfo { hasNextPage endCursor }\n      nodes { seq at space caller operation outcome }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n"): (typeof documents)["\n  query VerifyReceipt($receipt: JSON!, $publicKey: String) {\n    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChangesBetween($space: String!, $from: DateTime!, $to: DateTime, $clock: Clock!,\n                       $first: Int, $after: String) {\n    changes(space: $space, from: $from, to: $to, clock: $clock, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        cursor\n        node {\n          subject\n          scope\n          kind\n          before { factId value }\n          after { factId value }\n          causes { step factId at event }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ChangesBetween($space: String!, $from: DateTime!, $to: DateTime, $clock: Clock!,\n                       $first: Int, $after: String) {\n    changes(space: $space, from: $from, to: $to, clock: $clock, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        cursor\n        node {\n          subject\n          scope\n          kind\n          before { factId value }\n          after { factId value }\n          causes { step factId at event }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $source: String,\n                     $statuses: [Status!], $text: String, $asOf: DateTime, $validAt: DateTime,\n                     $first: Int, $after: String) {\n    facts(space: $space, subject: $subject, scope: $scope, source: $source,\n          statuses: $statuses, text: $text, asOf: $asOf, validAt: $validAt, first: $first,\n          after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { ...FactFields } }\n    }\n  }\n"): (typeof documents)["\n  query FactsOfSpace($space: String!, $subject: String, $scope: String, $source: String,\n                     $statuses: [Status!], $text: String, $asOf: DateTime, $validAt: DateTime,\n                     $first: Int, $after: String) {\n    facts(space: $space, subject: $subject, scope: $scope, source: $source,\n          statuses: $statuses, text: $text, asOf: $asOf, validAt: $validAt, first: $first,\n          after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { ...FactFields } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FindEntities($space: String!, $query: String!, $asOf: DateTime, $validAt: DateTime) {\n    searchEntities(space: $space, query: $query, first: 20, asOf: $asOf, validAt: $validAt) {\n      totalCount\n      nodes { key type name aliases }\n    }\n  }\n"): (typeof documents)["\n  query FindEntities($space: String!, $query: String!, $asOf: DateTime, $validAt: DateTime) {\n    searchEntities(space: $space, query: $query, first: 20, asOf: $asOf, validAt: $validAt) {\n      totalCount\n      nodes { key type name aliases }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 150) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n"): (typeof documents)["\n  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,\n                      $asOf: DateTime, $validAt: DateTime) {\n    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,\n                  validAt: $validAt, limit: 150) {\n      truncated\n      start { key type name }\n      entities { key type name }\n      paths { edges { factId type relation head tail status } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RelatedPaths($space: String!, $question: String!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 100) {\n      truncated\n      matchedBy\n      notes\n      ranked\n      answers { key type name }\n      unexplained\n      guessed\n      start { key type name }\n      entities { key type name }\n      paths { explain matched sources readings edges { factId type relation head tail status } }\n    }\n  }\n"): (typeof documents)["\n  query RelatedPaths($space: String!, $question: String!, $asOf: DateTime,\n                     $validAt: DateTime) {\n    recallRelated(space: $space, question: $question, asOf: $asOf,\n                  validAt: $validAt, answer: false, limit: 100) {\n      truncated\n      matchedBy\n      notes\n      ranked\n      answers { key type name }\n      unexplained\n      guessed\n      start { key type name }\n      entities { key type name }\n      paths { explain matched sources readings edges { factId type relation head tail status } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InboxPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                  $validAt: DateTime) {\n    conflicts(space: $space, excludeKinds: [PENDING], first: $first, after: $after,\n              asOf: $asOf, validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id conflictId kind status severity subject scope note by createdAt\n          facts { ...FactFields }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query InboxPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                  $validAt: DateTime) {\n    conflicts(space: $space, excludeKinds: [PENDING], first: $first, after: $after,\n              asOf: $asOf, validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id conflictId kind status severity subject scope note by createdAt\n          facts { ...FactFields }\n        }\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  query PendingPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                    $validAt: DateTime) {\n    conflicts(space: $space, kinds: [PENDING], first: $first, after: $after, asOf: $asOf,\n              validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { conflictId status note facts { ...FactFields } } }\n    }\n  }\n"): (typeof documents)["\n  query PendingPage($space: String!, $first: Int, $after: String, $asOf: DateTime,\n                    $validAt: DateTime) {\n    conflicts(space: $space, kinds: [PENDING], first: $first, after: $after, asOf: $asOf,\n              validAt: $validAt) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { conflictId status note facts { ...FactFields } } }\n    }\n  }\n"];
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
export function graphql(source: "\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime, $validAt: DateTime,\n                       $last: Int, $before: String) {\n    history(space: $space, subject: $subject, asOf: $asOf, validAt: $validAt, last: $last,\n            before: $before) {\n      subject\n      totalCount\n      pageInfo { hasPreviousPage startCursor }\n      edges {\n        cursor\n        node {\n          status\n          value\n          fact {\n            ...FactFields\n            supersededBy { factId value status recordedAt retracts }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime, $validAt: DateTime,\n                       $last: Int, $before: String) {\n    history(space: $space, subject: $subject, asOf: $asOf, validAt: $validAt, last: $last,\n            before: $before) {\n      subject\n      totalCount\n      pageInfo { hasPreviousPage startCursor }\n      edges {\n        cursor\n        node {\n          status\n          value\n          fact {\n            ...FactFields\n            supersededBy { factId value status recordedAt retracts }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n"): (typeof documents)["\n  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {\n    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n"): (typeof documents)["\n  mutation RememberText($space: String!, $text: String!, $source: String!) {\n    remember(space: $space, text: $text, source: $source) {\n      action subject value factId conflictId message eventId redacted\n      collisions { factId subject value }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;