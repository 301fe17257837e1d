package net.servicestack.client;

public interface IHasBearerToken {}
