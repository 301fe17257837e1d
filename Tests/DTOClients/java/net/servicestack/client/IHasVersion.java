package net.servicestack.client;

public interface IHasVersion {}
