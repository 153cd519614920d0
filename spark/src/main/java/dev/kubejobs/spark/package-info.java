/**
 * Spark jobs for kubejobs: {@link dev.kubejobs.spark.SparkJobSpec} describes a job and {@link
 * dev.kubejobs.spark.SparkOperators} returns the job kinds of the Apache and Kubeflow Spark
 * operators, which build SparkApplications and map their status.
 */
package dev.kubejobs.spark;
