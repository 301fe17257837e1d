package net.servicestack.client;

public interface IReturnVoid {}
