/**
 * The kubejobs job API: ids, statuses, execution info, identity on the cluster, the typed errors,
 * and the {@link dev.kubejobs.core.JobKind} contract a resource kind (such as a Spark operator's
 * SparkApplication) implements.
 */
package dev.kubejobs.core;
