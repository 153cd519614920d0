/** The implementation of the orphan sweep. Not a published API: it may change in any release. */
package dev.kubejobs.core.sweep.internal;
