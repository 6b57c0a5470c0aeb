/**
 * A BM25F index over a fixed set of documents with named fields (decision 0045): each field's
 * term frequency is normalised by its own length and weighted, the weighted sum saturates once
 * (k1), and a query term counts by its inverse document frequency and its own weight (1 for a
 * word the caller wrote, less for a word the vocabulary added). The per-document, per-term
 * weight is computed once at build, so a query only adds up postings. Pure: no I/O.
 */

/** BM25's term-frequency saturation (Okapi's customary 1.2). */
export const BM25_K1 = 1.2;

/** One field's weight and length normalisation (`b`: 0 none, 1 full). */
export interface SearchFieldSpec {
  /** How much a match in this field counts against a match in a field of weight 1. */
  readonly weight: number;
  /** BM25's length normalisation for the field (Okapi's customary 0.75). */
  readonly b: number;
}

/** A query term with the weight it counts with. */
export interface WeightedTerm {
  /** The term, as `termsOf` produced it. */
  readonly term: string;
  /** Its weight: 1 for a word of the query, less for an added one. */
  readonly weight: number;
}

/**
 * One word of a query and the words that stand for it: a document scores the best of them, so a
 * word with many stand-ins counts once, as a word with none does.
 */
export type QueryConcept = readonly WeightedTerm[];

/** One hit: the document's position in the indexed list and its score. */
export interface SearchHit {
  /** The position of the document in the list the index was built from. */
  readonly index: number;
  /** The BM25F score (higher is better; only the order is meaningful). */
  readonly score: number;
}

/** A built index: {@link buildSearchIndex}. */
export interface SearchIndex {
  /** How many documents it holds. */
  readonly size: number;
  /**
   * The documents matching any term, best first, at most `limit`; ties keep document order. A
   * document's score is the sum over the concepts of its best-scoring term in each.
   */
  search(concepts: readonly QueryConcept[], limit: number): SearchHit[];
}

interface Posting {
  readonly doc: number;
  /** The document's saturated, field-weighted term frequency times (k1 + 1). */
  readonly weight: number;
}

/**
 * Builds the index of `documents`, each a map from field name to the field's terms. A field the
 * spec does not name is ignored.
 */
export function buildSearchIndex<F extends string>(
  documents: readonly Readonly<Record<F, readonly string[]>>[],
  fields: Readonly<Record<F, SearchFieldSpec>>,
): SearchIndex {
  const names = Object.keys(fields) as F[];
  const averageLength = new Map<F, number>();
  for (const field of names) {
    const total = documents.reduce((sum, document) => sum + (document[field]?.length ?? 0), 0);
    averageLength.set(field, documents.length === 0 ? 0 : total / documents.length);
  }
  const postings = new Map<string, Posting[]>();
  documents.forEach((document, doc) => {
    const frequency = new Map<string, number>();
    for (const field of names) {
      const terms = document[field] ?? [];
      if (terms.length === 0) continue;
      const { weight, b } = fields[field];
      const average = averageLength.get(field) || 1;
      const norm = weight / (1 - b + (b * terms.length) / average);
      for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + norm);
    }
    for (const [term, tf] of frequency) {
      let list = postings.get(term);
      if (list === undefined) {
        list = [];
        postings.set(term, list);
      }
      list.push({ doc, weight: (tf * (BM25_K1 + 1)) / (BM25_K1 + tf) });
    }
  });
  const size = documents.length;
  const idf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  // Reused by every search (a search runs to its end synchronously) and left zeroed after it:
  // two fresh arrays per query were most of its garbage.
  const scores = new Float64Array(size);
  const best = new Float64Array(size);
  return {
    size,
    search(concepts, limit) {
      const touched: number[] = [];
      for (const concept of concepts) {
        const reached: number[] = [];
        for (const { term, weight } of concept) {
          const list = postings.get(term);
          if (list === undefined) continue;
          const factor = weight * idf(list.length);
          for (const posting of list) {
            const score = factor * posting.weight;
            const before = best[posting.doc] ?? 0;
            if (before === 0) reached.push(posting.doc);
            if (score > before) best[posting.doc] = score;
          }
        }
        for (const doc of reached) {
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] ?? 0) + (best[doc] ?? 0);
          best[doc] = 0;
        }
      }
      const hits = topHits(scores, touched, limit);
      for (const doc of touched) scores[doc] = 0;
      return hits;
    },
  };
}

/** The `limit` best of the touched documents, best first, ties in document order. */
function topHits(scores: Float64Array, touched: readonly number[], limit: number): SearchHit[] {
  const hits = touched.map((index) => ({ index, score: scores[index] ?? 0 }));
  hits.sort((a, b) => b.score - a.score || a.index - b.index);
  return hits.slice(0, Math.max(0, limit));
}
