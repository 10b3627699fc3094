/*
** bm25v(): FTS5's bm25, with each word's document count kept between statements instead of counted in every one,
** and each row's length read by a cursor that walks along with the match.
**
** At a million applications, FTS5's bm25() spends (docs/decisions/search-engine.md):
** - on its first row in a statement, a walk over every phrase's whole doclist to count its documents (xQueryPhrase),
**   the portfolio's and tags' tokens too although their weight is 0: ~70 ms for `system AND method` in the public
**   portfolio, ~135 ms for `"plurality of"`, paid again by every statement, each rank worker's range too;
** - on every row, a lookup of the row's length in %_docsize by a statement reset, bound and stepped: about half of
**   the time per row of a broad query.
** FTS5 stores no document counts, so bm25v counts a word's documents once (in the index's fts5vocab 'row' table)
** and keeps the count for the connection until the index has grown or shrunk by more than 1% (as Lucene's
** statistics lag its deletions). A phrase scores the sum of its words' IDFs, as Lucene scores a phrase; a phrase no
** row of the result holds in a weighted column is never counted. Row lengths come from one %_docsize cursor per
** statement stepped forward as FTS5 visits the rows in rowid order (sought when a row is behind or far ahead).
** Everything else is bm25's: a query of single words, not restricted to a column, gets bm25's very scores.
**
** A prefix's count is the sum of its words' counts, at most the row count (bm25 counts the documents holding any
** of them: the same when no document holds two), kept as a word's is. The API does not say which query tokens are
** prefixes, so the caller does.
**
** Usage: bm25v(<fts table>, '<its name>', '<prefix flags>', <weight of column 0>, <weight of column 1>, ...).
** The flags are one character per phrase of the MATCH, in the order they are written: '1' when the phrase ends in a
** prefix, anything else (or nothing: '') when it does not. The caller creates temp."<name>_words" as
** fts5vocab(main, <name>, row) on the connection (search/rank.ts).
*/
#include "sqlite3ext.h"
#include "fts5.h"
#include <math.h>
#include <string.h>
SQLITE_EXTENSION_INIT1

/* ------------------------------------------------------------------ the connection's document counts */

#define COUNTS_SLOTS 8192       /* a power of two; the table is emptied when half full */

typedef struct Count Count;
struct Count {
  char *zTerm;                  /* the token (malloc'd), 0 when the slot is free */
  int nTerm;
  sqlite3_int64 nDoc;           /* documents holding it */
  sqlite3_int64 nRowAt;         /* the index's row count when counted */
};

/*
** No statement lives here: sqlite3_close() refuses to close a connection that has one unfinalized, and this lives
** as long as the connection. The statements that read the counts belong to the ranking statement (RankData).
*/
typedef struct Counts Counts;
struct Counts {
  Count aSlot[COUNTS_SLOTS];
  int nUsed;
  char *zTable;                 /* the table whose words the counts are */
};

static void countsClear(Counts *p){
  int i;
  for(i=0; i<COUNTS_SLOTS; i++){ sqlite3_free(p->aSlot[i].zTerm); p->aSlot[i].zTerm = 0; }
  p->nUsed = 0;
}

static void countsDestroy(void *pArg){
  Counts *p = (Counts*)pArg;
  countsClear(p);
  sqlite3_free(p->zTable);
  sqlite3_free(p);
}

static unsigned int hashOf(const char *z, int n){
  unsigned int h = 2166136261u;
  int i;
  for(i=0; i<n; i++){ h ^= (unsigned char)z[i]; h *= 16777619u; }
  return h;
}

/* A count taken at nRowAt still stands at nRow: within 1% of it. */
static int fresh(sqlite3_int64 nRowAt, sqlite3_int64 nRow){
  sqlite3_int64 d = nRow > nRowAt ? nRow - nRowAt : nRowAt - nRow;
  return d * 100 <= nRowAt;
}

/*
** The documents of a word, or (bPrefix) of the words a prefix covers, kept in p or counted by apStmt[bPrefix]:
**   [0] SELECT doc FROM temp.<table>_words WHERE term = ?1
**   [1] SELECT sum(doc) FROM temp.<table>_words WHERE term >= ?1 AND term < ?2   (?2: the prefix then 0xFF)
** prepared on first use and finalized by their owner (the ranking statement's data). A prefix's count is the sum of
** its words' counts, at most nRow (a document holding two of them counts twice: an estimate, on the low side of the
** IDF). A prefix is kept under its bytes after a 0x01 byte, which no token holds.
*/
static int countOf(Counts *p, sqlite3 *db, sqlite3_stmt **apStmt, const char *zTable, const char *zTerm, int nTerm, int bPrefix, sqlite3_int64 nRow, sqlite3_int64 *pnDoc){
  char aKey[64];
  char *zKey = aKey;
  int nKey = nTerm + (bPrefix ? 1 : 0);
  unsigned int i;
  Count *pSlot;
  int rc = SQLITE_OK;
  if( p->zTable==0 || strcmp(p->zTable, zTable)!=0 ){
    countsClear(p);
    sqlite3_free(p->zTable);
    p->zTable = sqlite3_mprintf("%s", zTable);
    if( p->zTable==0 ) return SQLITE_NOMEM;
  }
  if( nKey + 1 > (int)sizeof(aKey) ){
    zKey = (char*)sqlite3_malloc(nKey + 1);
    if( zKey==0 ) return SQLITE_NOMEM;
  }
  if( bPrefix ) zKey[0] = 0x01;
  memcpy(&zKey[bPrefix ? 1 : 0], zTerm, nTerm);
  i = hashOf(zKey, nKey) & (COUNTS_SLOTS - 1);
  for(;; i = (i + 1) & (COUNTS_SLOTS - 1)){
    pSlot = &p->aSlot[i];
    if( pSlot->zTerm==0 ) break;
    if( pSlot->nTerm==nKey && memcmp(pSlot->zTerm, zKey, nKey)==0 ){
      if( fresh(pSlot->nRowAt, nRow) ){ *pnDoc = pSlot->nDoc; goto done; }
      break;
    }
  }
  if( apStmt[bPrefix]==0 ){
    char *zSql = sqlite3_mprintf(
      bPrefix ? "SELECT sum(doc) FROM temp.\"%w_words\" WHERE term >= ?1 AND term < ?2"
              : "SELECT doc FROM temp.\"%w_words\" WHERE term = ?1", zTable);
    if( zSql==0 ){ rc = SQLITE_NOMEM; goto done; }
    rc = sqlite3_prepare_v2(db, zSql, -1, &apStmt[bPrefix], 0);
    sqlite3_free(zSql);
    if( rc!=SQLITE_OK ) goto done;
  }
  sqlite3_bind_text(apStmt[bPrefix], 1, zTerm, nTerm, SQLITE_STATIC);
  if( bPrefix ){
    /* The end of the range: the prefix then 0xFF, a byte no UTF-8 text holds, so every word it covers is below. */
    zKey[nKey] = (char)0xFF;
    sqlite3_bind_text(apStmt[1], 2, &zKey[1], nTerm + 1, SQLITE_STATIC);
  }
  rc = sqlite3_step(apStmt[bPrefix]);
  *pnDoc = 0;
  if( rc==SQLITE_ROW ){ *pnDoc = sqlite3_column_int64(apStmt[bPrefix], 0); rc = SQLITE_OK; }
  else if( rc==SQLITE_DONE ){ rc = SQLITE_OK; }
  sqlite3_reset(apStmt[bPrefix]);
  if( rc!=SQLITE_OK ) goto done;
  if( *pnDoc > nRow ) *pnDoc = nRow;
  if( pSlot->zTerm==0 ){
    if( p->nUsed * 2 >= COUNTS_SLOTS ){
      countsClear(p);
      i = hashOf(zKey, nKey) & (COUNTS_SLOTS - 1);
      pSlot = &p->aSlot[i];
    }
    pSlot->zTerm = (char*)sqlite3_malloc(nKey > 0 ? nKey : 1);
    if( pSlot->zTerm==0 ) goto done;     /* counted, not kept */
    memcpy(pSlot->zTerm, zKey, nKey);
    pSlot->nTerm = nKey;
    p->nUsed++;
  }
  pSlot->nDoc = *pnDoc;
  pSlot->nRowAt = nRow;
done:
  if( zKey!=aKey ) sqlite3_free(zKey);
  return rc;
}

/* ------------------------------------------------------------------ the statement's data */

typedef struct RankData RankData;
struct RankData {
  int nPhrase;
  sqlite3_int64 nRow;
  double avgdl;
  double *aIDF;                 /* < 0 until the phrase is counted */
  double *aFreq;
  sqlite3_stmt *apCount[2];     /* countOf()'s (a word's, a prefix's), prepared when a count is needed */
  sqlite3_stmt *pSize;          /* SELECT id, sz FROM <table>_docsize WHERE id >= ?1 ORDER BY id */
  int bOnRow;                   /* pSize is on a row, whose id is iSizeId */
  sqlite3_int64 iSizeId;
};

static void rankDataFree(void *pArg){
  RankData *p = (RankData*)pArg;
  sqlite3_finalize(p->apCount[0]);
  sqlite3_finalize(p->apCount[1]);
  sqlite3_finalize(p->pSize);
  sqlite3_free(p);
}

/* IDF of a word present in nDoc of nRow documents, as FTS5's bm25 computes a phrase's (never below 1e-6). */
static double idfOf(sqlite3_int64 nRow, sqlite3_int64 nDoc){
  double idf = log(((double)nRow - (double)nDoc + 0.5) / ((double)nDoc + 0.5));
  return idf <= 0.0 ? 1e-6 : idf;
}

static int rankData(const Fts5ExtensionApi *pApi, Fts5Context *pFts, RankData **ppData){
  int rc = SQLITE_OK;
  RankData *p = (RankData*)pApi->xGetAuxdata(pFts, 0);
  if( p==0 ){
    sqlite3_int64 nToken = 0;
    int nPhrase = pApi->xPhraseCount(pFts);
    sqlite3_int64 nByte = sizeof(RankData) + (sqlite3_int64)nPhrase * 2 * sizeof(double);
    int i;
    p = (RankData*)sqlite3_malloc64(nByte);
    if( p==0 ) return SQLITE_NOMEM;
    memset(p, 0, (size_t)nByte);
    p->nPhrase = nPhrase;
    p->aIDF = (double*)&p[1];
    p->aFreq = &p->aIDF[nPhrase];
    for(i=0; i<nPhrase; i++) p->aIDF[i] = -1.0;
    rc = pApi->xRowCount(pFts, &p->nRow);
    if( rc==SQLITE_OK ) rc = pApi->xColumnTotalSize(pFts, -1, &nToken);
    if( rc==SQLITE_OK ) p->avgdl = p->nRow > 0 ? (double)nToken / (double)p->nRow : 1.0;
    if( rc==SQLITE_OK ) rc = pApi->xSetAuxdata(pFts, p, rankDataFree);
    else sqlite3_free(p);
    if( rc!=SQLITE_OK ) p = 0;
  }
  *ppData = p;
  return rc;
}

/* A varint of SQLite's record format (FTS5 writes the %_docsize sizes so). */
static int getVarint32(const unsigned char *a, int n, int *pOff, unsigned int *pVal){
  unsigned int v = 0;
  int i;
  for(i=0; i<5; i++){
    if( *pOff>=n ) return 1;
    v = (v << 7) | (a[*pOff] & 0x7f);
    if( (a[(*pOff)++] & 0x80)==0 ){ *pVal = v; return 0; }
  }
  return 1;
}

/* One step of the docsize cursor: on its next row (bOnRow, iSizeId), or past its last. */
static int sizeStep(RankData *p){
  int rc = sqlite3_step(p->pSize);
  p->bOnRow = rc==SQLITE_ROW;
  if( p->bOnRow ) p->iSizeId = sqlite3_column_int64(p->pSize, 0);
  return rc==SQLITE_ROW || rc==SQLITE_DONE ? SQLITE_OK : rc;
}

/* The steps forward that reach a row beyond the docsize cursor's before a seek is cheaper. */
#define SIZE_STEPS 32

/*
** The current row's length in tokens (every column), as xColumnSize(-1) answers it, read from the table's %_docsize
** by a cursor that walks along with the MATCH: FTS5 visits the rows in rowid order, and a step of the cursor costs a
** fraction of xColumnSize's own lookup (a statement reset, bound and stepped per row: most of bm25's time per row on
** a broad query). Rows out of order, or far ahead, are sought. Anything unexpected asks xColumnSize.
*/
static int docLength(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3 *db, const char *zTable, RankData *p, int *pnTok){
  sqlite3_int64 iRowid = pApi->xRowid(pFts);
  int rc = SQLITE_OK;
  if( p->pSize==0 ){
    char *zSql = sqlite3_mprintf("SELECT id, sz FROM main.\"%w_docsize\" WHERE id >= ?1 ORDER BY id", zTable);
    if( zSql==0 ) return SQLITE_NOMEM;
    rc = sqlite3_prepare_v3(db, zSql, -1, SQLITE_PREPARE_PERSISTENT, &p->pSize, 0);
    sqlite3_free(zSql);
    if( rc!=SQLITE_OK ){ p->pSize = 0; return pApi->xColumnSize(pFts, -1, pnTok); }
  }
  if( p->bOnRow && p->iSizeId<iRowid && iRowid - p->iSizeId<=SIZE_STEPS ){
    while( rc==SQLITE_OK && p->bOnRow && p->iSizeId<iRowid ) rc = sizeStep(p);
  }else if( !p->bOnRow || p->iSizeId!=iRowid ){
    sqlite3_reset(p->pSize);
    sqlite3_bind_int64(p->pSize, 1, iRowid);
    rc = sizeStep(p);
  }
  if( rc!=SQLITE_OK ) return rc;
  if( p->bOnRow && p->iSizeId==iRowid ){
    const unsigned char *a = (const unsigned char*)sqlite3_column_blob(p->pSize, 1);
    int n = sqlite3_column_bytes(p->pSize, 1);
    int nCol = pApi->xColumnCount(pFts);
    int iOff = 0, i;
    unsigned int v, nTok = 0;
    for(i=0; i<nCol; i++){
      if( getVarint32(a, n, &iOff, &v) ) break;
      nTok += v;
    }
    if( i==nCol && iOff==n ){ *pnTok = (int)nTok; return SQLITE_OK; }
  }
  return pApi->xColumnSize(pFts, -1, pnTok);
}

/* The IDF of phrase i: the sum of its words'; the last is a prefix when the caller's flags say so. */
static int phraseIdf(const Fts5ExtensionApi *pApi, Fts5Context *pFts, Counts *pCounts, sqlite3 *db, const char *zTable, RankData *p, int i, int bPrefix){
  int nTok = pApi->xPhraseSize(pFts, i);
  int t, rc = SQLITE_OK;
  double idf = 0.0;
  for(t=0; rc==SQLITE_OK && t<nTok; t++){
    const char *zTok = 0;
    int n = 0;
    sqlite3_int64 nDoc = 0;
    rc = pApi->xQueryToken(pFts, i, t, &zTok, &n);
    if( rc==SQLITE_OK ) rc = countOf(pCounts, db, p->apCount, zTable, zTok, n, bPrefix && t==nTok-1, p->nRow, &nDoc);
    if( rc==SQLITE_OK ) idf += idfOf(p->nRow, nDoc);
  }
  if( rc==SQLITE_OK ) p->aIDF[i] = idf;
  return rc;
}

static void bm25vFunction(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  const double k1 = 1.2;
  const double b = 0.75;
  Counts *pCounts = (Counts*)pApi->xUserData(pFts);
  RankData *pData = 0;
  double score = 0.0, D = 0.0;
  int rc, i, nInst = 0;
  const char *zTable;
  const char *zPrefixes;
  int nPrefixes;
  if( nVal<2 || (zTable = (const char*)sqlite3_value_text(apVal[0]))==0 || (zPrefixes = (const char*)sqlite3_value_text(apVal[1]))==0 ){
    sqlite3_result_error(pCtx, "bm25v: after the table come its name and the phrases' prefix flags", -1);
    return;
  }
  nPrefixes = sqlite3_value_bytes(apVal[1]);
  rc = rankData(pApi, pFts, &pData);
  if( rc==SQLITE_OK ){
    memset(pData->aFreq, 0, sizeof(double) * pData->nPhrase);
    rc = pApi->xInstCount(pFts, &nInst);
  }
  for(i=0; rc==SQLITE_OK && i<nInst; i++){
    int ip, ic, io;
    rc = pApi->xInst(pFts, i, &ip, &ic, &io);
    if( rc==SQLITE_OK ) pData->aFreq[ip] += (nVal - 2 > ic) ? sqlite3_value_double(apVal[ic + 2]) : 1.0;
  }
  if( rc==SQLITE_OK ){
    int nTok = 0;
    rc = docLength(pApi, pFts, sqlite3_context_db_handle(pCtx), zTable, pData, &nTok);
    D = (double)nTok;
  }
  for(i=0; rc==SQLITE_OK && i<pData->nPhrase; i++){
    double f = pData->aFreq[i];
    if( f==0.0 ) continue;
    if( pData->aIDF[i] < 0.0 ){
      int bPrefix = i < nPrefixes && zPrefixes[i]=='1';
      rc = phraseIdf(pApi, pFts, pCounts, sqlite3_context_db_handle(pCtx), zTable, pData, i, bPrefix);
    }
    if( rc==SQLITE_OK ) score += pData->aIDF[i] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * D / pData->avgdl)));
  }
  if( rc==SQLITE_OK ) sqlite3_result_double(pCtx, -1.0 * score);
  else sqlite3_result_error_code(pCtx, rc);
}

static fts5_api *fts5ApiOf(sqlite3 *db){
  fts5_api *pRet = 0;
  sqlite3_stmt *pStmt = 0;
  if( sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &pStmt, 0)==SQLITE_OK ){
    sqlite3_bind_pointer(pStmt, 1, (void*)&pRet, "fts5_api_ptr", 0);
    sqlite3_step(pStmt);
  }
  sqlite3_finalize(pStmt);
  return pRet;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_rank_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi){
  fts5_api *fts;
  Counts *pCounts;
  SQLITE_EXTENSION_INIT2(pApi);
  fts = fts5ApiOf(db);
  if( fts==0 || fts->iVersion<3 ){
    *pzErrMsg = sqlite3_mprintf("rank: this SQLite has no FTS5 API of version 3 or later");
    return SQLITE_ERROR;
  }
  pCounts = (Counts*)sqlite3_malloc(sizeof(Counts));
  if( pCounts==0 ) return SQLITE_NOMEM;
  memset(pCounts, 0, sizeof(Counts));
  return fts->xCreateFunction(fts, "bm25v", (void*)pCounts, bm25vFunction, countsDestroy);
}
