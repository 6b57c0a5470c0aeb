/**
 * The rules catalog search reads text by, as tables: words and stems, the phrases and the API
 * vocabulary a query word adds, an owner/name read as a repository, and the typo distance that
 * picks an unknown name's close matches.
 */
import { describe, expect, it } from 'vitest';
import { queryConcepts } from '../../../src/binding/mounts/search-ranking.js';
import {
  editDistance,
  splitWords,
  stemWord,
  termsOf,
} from '../../../src/binding/mounts/search-text.js';
import { rewritePhrases, vocabularyOf } from '../../../src/binding/mounts/search-vocabulary.js';

describe('splitWords', () => {
  it.each([
    ['github__repos_delete-deploy-key', ['github', 'repos', 'delete', 'deploy', 'key']],
    ['listPullRequests', ['list', 'pull', 'requests']],
    ['getHTTPStatus', ['get', 'http', 'status']],
    ['repos/{owner}/{repo}/keys', ['repos', 'owner', 'repo', 'keys']],
  ])('%s', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('stemWord', () => {
  it.each([
    ['releases', 'releas'],
    ['release', 'releas'],
    ['released', 'releas'],
    ['issues', 'issu'],
    ['branches', 'branch'],
    ['caches', 'cach'],
    ['running', 'run'],
    ['pinned', 'pin'],
    ['settings', 'set'],
    ['status', 'status'],
    ['access', 'access'],
    ['people', 'person'],
    ['logged', 'login'],
  ])('%s -> %s', (word, stem) => {
    expect(stemWord(word)).toBe(stem);
  });
});

describe('termsOf', () => {
  it('drops function words and lone characters, and stems the rest', () => {
    expect(termsOf('Get the latest release of a repo, v2')).toEqual([
      'latest',
      'releas',
      'repo',
      'v2',
    ]);
  });
});

describe('rewritePhrases', () => {
  it.each([
    ['ask bob to look over it', 'ask bob to  review  it'],
    // "who am I" is an idiom of a table written apart: its word is added, its own words kept.
    ['who am I logged   in as', ' currentuser who am I   login  as'],
    ['get rid of the cache', ' delete  the cache'],
    ['make it read-only', 'make it  archived '],
    ["see what's new in the repos I follow", 'see  feed  in the repos I follow'],
  ])('%s', (query, rewritten) => {
    expect(rewritePhrases(query)).toBe(rewritten);
  });
});

describe('queryConcepts', () => {
  it('weighs a written word 1 and the API words it stands for 0.75; owner/name is a repository', () => {
    expect(queryConcepts('close ticket in octo/site')).toEqual([
      [
        { term: 'clos', weight: 1 },
        { term: 'stat', weight: 0.75 },
        { term: 'updat', weight: 0.75 },
      ],
      [
        { term: 'ticket', weight: 1 },
        { term: 'issu', weight: 0.75 },
      ],
      [{ term: 'repository', weight: 1 }],
    ]);
  });

  it.each([
    ['which branches exist', true],
    ['who starred octo/site', true],
    ['what is octo/site written in', true],
    ['close every stale ticket', true],
    ['delete a deploy key', false],
    ['whichever', false],
  ])('reads %j as a question for a list: %s', (query, asks) => {
    const concepts = queryConcepts(query);
    expect(concepts.some((concept) => concept.length === 1 && concept[0]?.term === 'list')).toBe(
      asks,
    );
  });

  it("adds the question's 'list' at 0.75, once, and not to a query that says list", () => {
    expect(queryConcepts('which releases')).toEqual([
      [
        { term: 'releas', weight: 1 },
        { term: 'deployment', weight: 0.75 },
      ],
      [{ term: 'list', weight: 0.75 }],
    ]);
    expect(queryConcepts('list all forks')).toEqual([
      [{ term: 'list', weight: 1 }],
      [{ term: 'fork', weight: 1 }],
    ]);
  });

  it('reads the family vocabulary after the first: its phrases add a word and keep theirs, its rows add', () => {
    // "build agent" is a phrase of the families (a runner), "on prem" too (on premises); their
    // own words stay, so an API that says "build" or "agent" is still found by them.
    expect(queryConcepts('our build agent is on prem')).toEqual([
      [{ term: 'runner', weight: 1 }],
      [
        { term: 'build', weight: 1 },
        { term: 'workflow', weight: 0.75 },
        { term: 'run', weight: 0.75 },
        { term: 'action', weight: 0.75 },
        { term: 'job', weight: 0.75 },
        { term: 'check', weight: 0.75 },
      ],
      [{ term: 'agent', weight: 1 }],
      [
        { term: 'onprem', weight: 1 },
        { term: 'runner', weight: 0.75 },
        { term: 'self', weight: 0.75 },
        { term: 'host', weight: 0.75 },
      ],
      [{ term: 'prem', weight: 1 }],
    ]);
    // A word of a family row adds its API words; a word of the first vocabulary keeps its own.
    expect(queryConcepts('offboard a contractor')).toEqual([
      [
        { term: 'offboard', weight: 1 },
        { term: 'remov', weight: 0.75 },
        { term: 'member', weight: 0.75 },
        { term: 'membership', weight: 0.75 },
      ],
      [
        { term: 'contractor', weight: 1 },
        { term: 'member', weight: 0.75 },
        { term: 'collaborator', weight: 0.75 },
      ],
    ]);
  });

  it('adds nothing for a word the vocabulary does not hold', () => {
    expect(vocabularyOf('octocat')).toEqual([]);
  });
});

describe('editDistance', () => {
  it.each([
    ['deploy', 'deploy', 0],
    ['deploi', 'deploy', 1],
    ['deplyo', 'deploy', 2],
    ['widget_99', 'widget_09', 1],
    ['abc', 'xyzuvw', 4],
  ])('%s to %s is %i (4: past the limit of 3)', (a, b, distance) => {
    expect(editDistance(a, b, 3)).toBe(distance);
  });

  it('gives up past the limit', () => {
    expect(editDistance('search', 'deploy', 2)).toBe(3);
  });
});
