/**
 * Completion for the query editor (Monaco, JSON mode): the clauses and options of the search DSL subset the
 * portfolio's engine speaks (upstream/contract/portfolio.ts, AdvancedSearchBody and DslQuery), as snippets.
 */
export type DslSnippet = { label: string; detail: string; insertText: string };

export const DSL_SNIPPETS: readonly DslSnippet[] = [
  { label: "query", detail: "The query (top level)", insertText: '"query": {\n\t$0\n}' },
  { label: "query_string", detail: "Lucene syntax over fields", insertText: '"query_string": { "query": "$1", "fields": ["title", "abstract"] }' },
  { label: "match", detail: "Full text in one field", insertText: '"match": { "${1:title}": "$2" }' },
  { label: "match_phrase", detail: "A phrase in one field", insertText: '"match_phrase": { "${1:abstract}": "$2" }' },
  { label: "multi_match", detail: "Full text over several fields", insertText: '"multi_match": { "query": "$1", "fields": ["title", "abstract", "claims"] }' },
  { label: "bool", detail: "must / should / must_not / filter", insertText: '"bool": {\n\t"must": [$1],\n\t"should": [],\n\t"must_not": []\n}' },
  { label: "must", detail: "bool: every clause matches (scores)", insertText: '"must": [$0]' },
  { label: "should", detail: "bool: at least one clause matches", insertText: '"should": [$0]' },
  { label: "must_not", detail: "bool: no clause matches", insertText: '"must_not": [$0]' },
  { label: "filter", detail: "bool: every clause matches (no score)", insertText: '"filter": [$0]' },
  { label: "minimum_should_match", detail: "bool: how many should clauses", insertText: '"minimum_should_match": ${1:1}' },
  { label: "term", detail: "Exact value: tags.name, id, source.id, portfolioId", insertText: '"term": { "${1:tags.name}": "$2" }' },
  { label: "terms", detail: "Any of exact values", insertText: '"terms": { "${1:tags.name}": ["$2"] }' },
  { label: "range", detail: "broadScore, detectableScore, createdAt, updatedAt", insertText: '"range": { "${1:broadScore}": { "gte": $2 } }' },
  { label: "ids", detail: "Application ids", insertText: '"ids": { "values": ["$1"] }' },
  { label: "match_all", detail: "Every application", insertText: '"match_all": {}' },
  { label: "highlight", detail: "Fragments of the matches", insertText: '"highlight": {\n\t"fragment_size": 100,\n\t"number_of_fragments": 2,\n\t"no_match_size": 100,\n\t"fields": { "title": {}, "abstract": {}, "specification": {}, "claims": {} }\n}' },
  { label: "sort", detail: "_score or a field", insertText: '"sort": [{ "${1:_score}": "desc" }]' },
  { label: "_source", detail: "Fields each hit carries", insertText: '"_source": { "excludes": ["specification", "claims"] }' },
  { label: "fields", detail: "Fields to search or highlight", insertText: '"fields": ["title", "abstract"]' },
  { label: "default_operator", detail: "query_string: OR or AND", insertText: '"default_operator": "${1|OR,AND|}"' },
  { label: "boost", detail: "Weight of a clause", insertText: '"boost": ${1:2}' },
];
