/**
 * The tabs GraphiQL opens with: one example operation per main feature, each runnable as it
 * stands once a key is entered (the space is a variable, `demo` by default).
 */

export interface Example {
  query: string;
  variables: string;
}

const space = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ space: 'demo', ...extra }, null, 2);

export const EXAMPLES: Example[] = [
  {
    query: `# Remember structured facts: each one is reconciled against what the space holds.
mutation RememberFacts($space: String!) {
  rememberFacts(
    space: $space
    source: "graphiql"
    facts: [
      { subject: "database", value: "Postgres", confidence: 0.95 }
      { subject: "billing_calls", head: "Billing", headType: "service",
        relation: "calls", tail: "Auth", tailType: "service" }
      { subject: "auth_owner", head: "Auth", headType: "service",
        relation: "owned by", tail: "Ana", tailType: "person" }
    ]
  ) {
    action
    subject
    value
    message
  }
}
`,
    variables: space(),
  },
  {
    query: `# What memory held at a past instant (asOf) or what was true in the world (validAt).
query FactsAsOf($space: String!, $asOf: DateTime) {
  facts(space: $space, asOf: $asOf, first: 20) {
    totalCount
    edges {
      node { id subject value status recordedAt retiredAt validFrom validTo }
    }
  }
}
`,
    variables: space({ asOf: new Date().toISOString() }),
  },
  {
    query: `# A subject's timeline, oldest to newest, with the SUPERSEDES / RETRACTS chain.
query History($space: String!, $subject: String!) {
  history(space: $space, subject: $subject) {
    text
    entries {
      status
      value
      fact { id recordedAt retiredAt supersedes retracts }
    }
  }
}
`,
    variables: space({ subject: 'database' }),
  },
  {
    query: `# Multi-hop recall: paths of up to two hops from the entities the question names.
query RecallRelated($space: String!) {
  recallRelated(space: $space, question: "who owns what Billing calls?", hops: 2) {
    matchedBy
    truncated
    answer
    paths { text keys edges { type status head tail } }
  }
}
`,
    variables: space(),
  },
  {
    query: `# The conflicts inbox: open conflicts, and the counts of the space.
query ConflictsInbox($space: String!) {
  stats(space: $space) { openConflicts pendingChanges active flagged }
  conflicts(space: $space, status: OPEN, first: 20) {
    totalCount
    edges { node { id kind severity factIds createdAt } }
  }
}
`,
    variables: space(),
  },
];
