package net.servicestack.client;

public interface IHasSessionId {}
