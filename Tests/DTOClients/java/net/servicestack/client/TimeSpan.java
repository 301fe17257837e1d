package net.servicestack.client;

/** A stand-in for the client library's duration type. */
public class TimeSpan {}
