/**
 * Checking at start-up that the cluster is ready for kubejobs: {@link
 * dev.kubejobs.core.preflight.Preflight} reports every missing permission and whether the job
 * resource's CRD is served.
 */
package dev.kubejobs.core.preflight;
