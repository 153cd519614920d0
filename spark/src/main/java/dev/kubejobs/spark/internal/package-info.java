/**
 * Implementation of the Spark job kinds: manifests, status readers and the shared status rules. Not
 * a published API: it may change in any release.
 */
package dev.kubejobs.spark.internal;
