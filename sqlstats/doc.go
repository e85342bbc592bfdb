// Package sqlstats computes the sufficient statistics of a least-squares
// fit (package suffstat: per fold, the total weight, the weighted means
// and the centred co-moments of the predictors and responses) inside an
// SQL engine, where the data live: the aggregation is pushed down as SQL
// and only O(K·d²) numbers come back, whatever the number of rows.
//
// Two queries, both grouped by fold:
//
//  1. counts, Σw and Σw·zᵢ, which give each fold's mean and, merged, a
//     provisional mean m of all rows;
//  2. the shifted sums Σw·(zᵢ − mᵢ) and Σw·(zᵢ − mᵢ)(zⱼ − mⱼ), i ≤ j, with
//     m inlined as literals (17 significant digits).
//
// Each fold's co-moments about its own mean z̄ are then
// C = S − W·(z̄ − m)(z̄ − m)ᵀ with z̄ − m = Σw(z − m)/W, both small when m
// is near z̄: the centring is stable, where raw sums Σz² − W·z̄² lose every
// digit on a column 1e8 + U(0, 1) (ClickHouse's own varPop does). When d
// is large the upper triangle is split into tiles of at most MaxExprs sums
// per query.
//
// The SQL is written through a Dialect: identifier quoting, the cast to a
// double, the fold of a hashed key, the finiteness test. ClickHouse is
// tested (version 18.16, a two-shard cluster over a Distributed table, see
// scripts/clickhouse); PostgreSQL and DuckDB dialects are given and
// expected to work, but are not tested. Queries go through a Querier; HTTP
// is ClickHouse's HTTP interface, every request of it bounded in time
// (Timeouts: connecting, the first byte of the schema query, silence
// inside an answer, the whole query), and its Schema gives the column types, which CheckTypes checks
// before a statistics query runs. Rows holding NULL, NaN or ±Inf are
// found by a count in the first query and named by column (ValueError).
package sqlstats
